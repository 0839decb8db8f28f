import Foundation
import TestSupport
import Testing

/// A passphrase file is its bytes, without one final newline: the same key
/// as the same text in PLAYERS_PASSPHRASE, and never the same key as a
/// file with other bytes.
@Suite struct PassphraseFileTests {
    @Test func filesThatDifferOnlyInBytesThatAreNotUTF8AreDifferentPassphrases() async throws {
        let sandbox = try CLISandbox()
        let first = try sandbox.writeSecret("first", bytes: Data("secret".utf8) + [0xFF, 0xFE])
        let second = try sandbox.writeSecret("second", bytes: Data("secret".utf8) + [0xC0, 0x80])
        await #expect(try sandbox.run(["init", "--passphrase-file", first]).status == 0)
        await #expect(try sandbox.run(["add", "--name", "A", "--score", "1", "--passphrase-file", first]).status == 0)
        let before = sandbox.databaseSnapshot()
        let other = try await sandbox.run(["list", "--passphrase-file", second])
        #expect(other.status == 3, "\(other.error)")
        #expect(sandbox.databaseSnapshot() == before)
        await #expect(try sandbox.run(["list", "--passphrase-file", first]).status == 0)
    }

    /// `rekey` and `export` hand the passphrase to `ATTACH … KEY ?`: its
    /// bytes, too.
    @Test func aDatabaseRekeyedToABinaryPassphraseOpensWithThatFileOnly() async throws {
        let sandbox = try await CLISandbox.withPlayer("A", score: 1)
        let binary = try sandbox.writeSecret("binary", bytes: Data([0x00, 0xFF, 0x80, 0x0A, 0xC3]))
        let replaced = try sandbox.writeSecret("replaced", bytes: Data([0x00, 0xFE, 0x81, 0x0A, 0xC3]))
        let rekey = try await sandbox.run(["rekey", "--quiet", "--to-passphrase-file", binary])
        #expect(rekey.status == 0, "\(rekey.error)")
        let before = sandbox.databaseSnapshot()
        await #expect(try sandbox.run(["list", "--passphrase-file", replaced]).status == 3)
        #expect(sandbox.databaseSnapshot() == before)
        let list = try await sandbox.run(["list", "--passphrase-file", binary])
        #expect(list.status == 0, "\(list.error)")
        #expect(list.output.contains("A"))
    }

    @Test func oneFinalNewlineIsNotPartOfThePassphrase() async throws {
        let sandbox = try CLISandbox()
        let text = "pässphrase, ending with a space "
        await #expect(try sandbox.run(["init"], environment: ["PLAYERS_PASSPHRASE": text]).status == 0)
        await #expect(try sandbox.run(["add", "--name", "A", "--score", "1"], environment: ["PLAYERS_PASSPHRASE": text]).status == 0)
        for (name, content) in [("two-newlines", text + "\n\n"), ("no-final-space", String(text.dropLast()) + "\n")] {
            let before = sandbox.databaseSnapshot()
            let result = try await sandbox.run(["list", "--passphrase-file", sandbox.writeSecret(name, content)])
            #expect(result.status == 3, "\(name): \(result.error)")
            #expect(sandbox.databaseSnapshot() == before)
        }
        for (name, content) in [("none", text), ("newline", text + "\n"), ("crlf", text + "\r\n")] {
            let result = try await sandbox.run(["list", "--passphrase-file", sandbox.writeSecret(name, content)])
            #expect(result.status == 0, "\(name): \(result.error)")
        }
    }

    @Test func anEmptyPassphraseFileIsRefused() async throws {
        let sandbox = try CLISandbox()
        let file = try sandbox.writeSecret("empty", "\n")
        let result = try await sandbox.run(["init", "--passphrase-file", file])
        #expect(result.status == 1)
        #expect(result.error == "players: the passphrase file \(file) is empty: write the passphrase in it\n")
        #expect(!FileManager.default.fileExists(atPath: sandbox.databasePath))
    }
}
