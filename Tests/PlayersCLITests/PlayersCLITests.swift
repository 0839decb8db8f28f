import Foundation
import TestSupport
import Testing

@Suite struct PlayersCLITests {
    @Test func executableIsBuilt() throws {
        let executable = try CLISandbox.executable()
        #expect(FileManager.default.isExecutableFile(atPath: executable.path), "build the package first")
    }

    @Test func initCreatesAnEncryptedDatabaseAndAPrivateKey() async throws {
        let sandbox = try CLISandbox()
        let result = try await sandbox.run(["init"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.contains("Created an encrypted players database"))
        let keyAttributes = try FileManager.default.attributesOfItem(atPath: sandbox.keyPath)
        #expect((keyAttributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let folderAttributes = try FileManager.default.attributesOfItem(atPath: URL(fileURLWithPath: sandbox.keyPath).deletingLastPathComponent().path)
        #expect((folderAttributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
        let key = try String(contentsOfFile: sandbox.keyPath, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(key.count == 64)
        #expect(!result.output.contains(key) && !result.error.contains(key))

        _ = try await sandbox.run(["add", "--name", "Arthur Dent", "--score", "42"])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: sandbox.databasePath))
        #expect(!bytes.starts(with: Data("SQLite format 3".utf8)))
        #expect(bytes.range(of: Data("Arthur Dent".utf8)) == nil)

        // A second init changes nothing.
        let before = sandbox.databaseSnapshot()
        let again = try await sandbox.run(["init"])
        #expect(again.status == 1)
        #expect(again.error.contains("already exists"))
        #expect(sandbox.databaseSnapshot() == before)
    }

    @Test func everyRecordCommandWorks() async throws {
        let sandbox = try CLISandbox()
        await #expect(try sandbox.run(["init"]).status == 0)
        await #expect(try sandbox.run(["add", "--name", "Arthur", "--score", "100"]).output == "Added player 1: Arthur, 100.\n")
        await #expect(try sandbox.run(["add", "--name", "barbara", "--score", "1000"]).status == 0)

        let table = try await sandbox.run(["list"])
        #expect(table.output == "ID  NAME     SCORE\n 2  barbara   1000\n 1  Arthur     100\n")

        let json = try await sandbox.run(["list", "--json", "--order", "name"])
        let players = try jsonLines(json.output)
        #expect(players.compactMap { $0["name"] as? String } == ["Arthur", "barbara"])

        await #expect(try sandbox.run(["edit", "1", "--score", "5"]).output == "Player 1: Arthur, 5.\n")
        await #expect(try sandbox.run(["delete", "2"]).output == "Deleted 1 player.\n")
        await #expect(try sandbox.run(["randomize"]).status == 0)

        let info = try await sandbox.run(["info", "--json"])
        let report = try JSONSerialization.jsonObject(with: Data(info.output.utf8)) as? [String: Any]
        #expect(report?["sqlcipherVersion"] as? String == "3.4.1")
        #expect(report?["rawKey"] as? Bool == true)
        #expect(report?["migrations"] as? [String] == ["v1", "v2-sync-identity", "v3-sync-state", "v4-outbox", "v5-name-order", "v6-sync-digest", "v7-sync-engine"])

        let verify = try await sandbox.run(["verify"])
        #expect(verify.status == 0)
        #expect(verify.output.hasPrefix("OK:"))

        let deleteAll = try await sandbox.run(["delete", "--all", "--yes"])
        #expect(deleteAll.status == 0)
        await #expect(try sandbox.run(["list"]).output == "No players.\n")
    }

    @Test func passphraseFromAFileOrTheEnvironmentAndNeverShown() async throws {
        let sandbox = try CLISandbox()
        let secret = "correct horse battery staple"
        let passphraseFile = try sandbox.writeSecret("passphrase", secret + "\n")
        await #expect(try sandbox.run(["init", "--passphrase-file", passphraseFile]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: sandbox.keyPath)) // no key file with a passphrase
        await #expect(try sandbox.run(["add", "--name", "A", "--score", "1", "--passphrase-file", passphraseFile]).status == 0)
        let list = try await sandbox.run(["list", "--json"], environment: ["PLAYERS_PASSPHRASE": secret])
        #expect(list.status == 0)
        let info = try await sandbox.run(["info"], environment: ["PLAYERS_PASSPHRASE": secret])
        #expect(info.output.contains("passphrase, from PLAYERS_PASSPHRASE"))
        for result in [list, info] {
            #expect(!result.output.contains(secret) && !result.error.contains(secret))
        }
    }

    @Test func wrongPassphraseExitsWith3AndChangesNothing() async throws {
        let sandbox = try CLISandbox()
        let passphraseFile = try sandbox.writeSecret("passphrase", "right")
        await #expect(try sandbox.run(["init", "--passphrase-file", passphraseFile]).status == 0)
        await #expect(try sandbox.run(["add", "--name", "A", "--score", "1"], environment: ["PLAYERS_PASSPHRASE": "right"]).status == 0)
        let before = sandbox.databaseSnapshot()
        let result = try await sandbox.run(["add", "--name", "B", "--score", "2"], environment: ["PLAYERS_PASSPHRASE": "wrong-secret"])
        #expect(result.status == 3)
        #expect(result.error.hasPrefix("players: cannot open the players database"))
        #expect(result.error.contains("passphrase or key is wrong"))
        #expect(!result.error.contains("wrong-secret"))
        #expect(result.error.split(separator: "\n").count == 1)
        #expect(sandbox.databaseSnapshot() == before)
    }

    @Test func keyFilesReadableByOthersAreRefused() async throws {
        let sandbox = try CLISandbox()
        let keyFile = try sandbox.writeSecret("key", String(repeating: "ab", count: 32), mode: 0o644)
        let result = try await sandbox.run(["init", "--key-file", keyFile])
        #expect(result.status == 1)
        #expect(result.error.contains("can be read by other users: run 'chmod 600 \(keyFile)'"))
        #expect(!FileManager.default.fileExists(atPath: sandbox.databasePath))

        let badKey = try sandbox.writeSecret("short-key", "abcd")
        let short = try await sandbox.run(["init", "--key-file", badKey])
        #expect(short.status == 1)
        #expect(short.error.contains("64 hexadecimal digits"))
    }

    @Test func usageErrorsExitWith2() async throws {
        let sandbox = try CLISandbox()
        await #expect(try sandbox.run(["init"]).status == 0)
        for arguments in [["add", "--score", "1"], ["add", "--name", " ", "--score", "1"], ["add", "--name", "A", "--score", "-1"],
                          ["edit", "1"], ["delete"], ["delete", "1", "--all"], ["list", "--order", "age"],
                          ["list", "--key-file", "a", "--passphrase-file", "b"], ["frobnicate"]] {
            let result = try await sandbox.run(arguments)
            #expect(result.status == 2, "\(arguments): \(result.error)")
        }
    }

    @Test func badInputLeavesTheDatabaseUnchanged() async throws {
        let sandbox = try CLISandbox()
        await #expect(try sandbox.run(["init"]).status == 0)
        await #expect(try sandbox.run(["add", "--name", "A", "--score", "1"]).status == 0)
        let before = sandbox.databaseSnapshot()

        let missing = try await sandbox.run(["delete", "1", "99"])
        #expect(missing.status == 1)
        #expect(missing.error == "players: no player with id 99: nothing was changed\n")
        let edit = try await sandbox.run(["edit", "42", "--name", "Z"])
        #expect(edit.status == 1)
        let unconfirmed = try await sandbox.run(["delete", "--all"])
        #expect(unconfirmed.status == 2)
        #expect(unconfirmed.error.contains("add --yes"))
        #expect(sandbox.databaseSnapshot() == before)
        await #expect(try sandbox.run(["list", "--json"]).output.contains("\"A\""))
    }

    @Test func aMissingDatabaseIsNotCreatedByOtherCommands() async throws {
        let sandbox = try CLISandbox()
        let result = try await sandbox.run(["list", "--database", sandbox.root.appendingPathComponent("nowhere/db").path])
        #expect(result.status == 1)
        #expect(result.error.contains("run 'players init'"))
        #expect(!FileManager.default.fileExists(atPath: sandbox.root.appendingPathComponent("nowhere").path))
    }

    @Test func helpDocumentsTheExitCodes() async throws {
        let sandbox = try CLISandbox()
        let help = try await sandbox.run(["--help"])
        #expect(help.status == 0)
        let text = help.output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("3 wrong passphrase or key"))
        #expect(text.contains("4 verification failed"))
        #expect(help.output.contains("SUBCOMMANDS"))
    }
}
