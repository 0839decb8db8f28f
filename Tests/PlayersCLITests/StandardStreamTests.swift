import Foundation
import TestSupport
import Testing

/// `-` for a file: `export` writes to standard output, `decrypt`,
/// `restore` and `encrypt` read standard input; binary output is refused
/// on a terminal, and so is reading a file from one. A file named `-` is
/// `./-`.
@Suite struct StandardStreamTests {
    @Test func anEncryptedJSONExportGoesToStandardOutputAndDecryptsFromStandardInput() async throws {
        let sandbox = try await CLISandbox.withRandomPlayers()
        let piped = try await sandbox.runShell("players export --format json - | players decrypt -")
        #expect(piped.status == 0, "\(piped.error)")
        #expect(piped.error.isEmpty)
        try await sandbox.runChecked(["export", "--format", "json", sandbox.root.appendingPathComponent("players.json").path])
        let fromFile = try await sandbox.runShell("players decrypt players.json")
        #expect(piped.output == fromFile.output)
        #expect(piped.output.contains(#""kind" : "snapshot""#))
        #expect(!FileManager.default.fileExists(atPath: sandbox.root.appendingPathComponent("-").path))
    }

    @Test func aDatabaseExportGoesToStandardOutputThroughATemporaryFileThatIsRemoved() async throws {
        let sandbox = try await CLISandbox.withRandomPlayers()
        let result = try await sandbox.runShell("players export - > copy.db")
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error.isEmpty)
        let copy = sandbox.root.appendingPathComponent("copy.db").path
        #expect(try sandbox.players(at: copy) == sandbox.players())
        await #expect(try sandbox.run(["verify", "--database", copy]).status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.temporaryFolder.path).isEmpty)
    }

    @Test func restoreReadsABackupFromStandardInput() async throws {
        let sandbox = try await CLISandbox.withRandomPlayers()
        let before = try sandbox.players()
        try await sandbox.runChecked(["backup", sandbox.root.appendingPathComponent("backup.db").path])
        try await sandbox.runChecked(["delete", "--all", "--yes"])
        let result = try await sandbox.runShell("players restore - < backup.db")
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == "Restored \(sandbox.databasePath) from standard input.\n")
        #expect(try sandbox.players() == before)
        try sandbox.expectNoTemporaries(next: sandbox.databasePath)
    }

    @Test func restoreRefusesWhatIsNotABackupAndNamesStandardInput() async throws {
        let sandbox = try await CLISandbox.withRandomPlayers()
        let before = sandbox.databaseSnapshot()
        let garbage = try await sandbox.runShell("echo 'not a database' | players restore -")
        #expect(garbage.status == 3)
        #expect(garbage.error == "players: standard input does not open with the given key, or is not a players database: nothing was restored; "
                    + "give the key it was made with (--from-key-file or --from-passphrase-file)\n")
        let empty = try await sandbox.runShell("players restore - < /dev/null")
        #expect(empty.status == 1)
        #expect(empty.error == "players: standard input is empty: pipe or redirect the file into the command\n")
        #expect(sandbox.databaseSnapshot() == before)
        try sandbox.expectNoTemporaries(next: sandbox.databasePath)
    }

    @Test func encryptImportsAPlaintextDatabaseFromStandardInput() async throws {
        let sandbox = try CLISandbox()
        _ = try await sandbox.makeSeedsPlaintextDatabase("plain.sqlite", "INSERT INTO player (name, score) VALUES ('Imported', 7);")
        let result = try await sandbox.runShell("players encrypt - < plain.sqlite")
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output.hasPrefix("Encrypted standard input into \(sandbox.databasePath).\n"))
        #expect(try sandbox.players().map { $0.split(separator: " ").dropFirst().joined(separator: " ") } == ["Imported 7"])
        try sandbox.expectNoTemporaries(next: sandbox.databasePath)
    }

    @Test func encryptRefusesWhatIsNotAPlaintextDatabaseAndCreatesNothing() async throws {
        let sandbox = try CLISandbox()
        let result = try await sandbox.runShell("echo 'just text' | players encrypt -")
        #expect(result.status == 1)
        #expect(result.error == "players: standard input is not a plaintext SQLite database: nothing was created\n")
        let folder = URL(fileURLWithPath: sandbox.databasePath).deletingLastPathComponent().path
        #expect(!FileManager.default.fileExists(atPath: folder))
        #expect(!FileManager.default.fileExists(atPath: sandbox.keyPath))
    }

    @Test(arguments: [
        (["export", "--format", "json", "-"], "an encrypted export"),
        (["export", "-"], "a database"),
        (["export", "--plaintext", "-"], "a database"),
    ])
    func binaryOutputToATerminalIsRefused(_ arguments: [String], _ what: String) async throws {
        let sandbox = try await CLISandbox.withRandomPlayers()
        let before = sandbox.databaseSnapshot()
        let process = try sandbox.makeProcess(arguments)
        process.currentDirectoryURL = sandbox.root
        let result = try await runOnTerminal(process)
        #expect(result.status == 2)
        #expect(result.output == "players: standard output is a terminal, and \(what) is binary: redirect it to a file or a pipe\n")
        #expect(sandbox.databaseSnapshot() == before)
        #expect(!FileManager.default.fileExists(atPath: sandbox.root.appendingPathComponent("-").path))
    }

    @Test func plaintextJSONIsPrintedOnATerminal() async throws {
        let sandbox = try await CLISandbox.withPlayer("Arthur\u{202E}Dent", score: 42)
        let result = try await runOnTerminal(sandbox.makeProcess(["export", "--format", "json", "--plaintext", "-"]))
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("players: warning: the copy is NOT encrypted"))
        // Escaped for the terminal, as 'players decrypt' prints it.
        #expect(result.output.contains(#""name" : "Arthur\u202EDent""#), "\(result.output)")
        #expect(result.output.hasSuffix("}\n"))
    }

    @Test(arguments: ["decrypt", "restore", "encrypt"])
    func readingAFileFromATerminalIsRefused(_ command: String) async throws {
        let sandbox = try await CLISandbox.withRandomPlayers()
        let before = sandbox.databaseSnapshot()
        let arguments = command == "encrypt" ? [command, "--database", sandbox.root.appendingPathComponent("new.db").path, "-"] : [command, "-"]
        let result = try await runOnTerminal(sandbox.makeProcess(arguments))
        #expect(result.status == 2)
        #expect(result.output == "players: standard input is a terminal: pipe or redirect the file into 'players \(command) -', or give its path\n")
        #expect(sandbox.databaseSnapshot() == before)
    }

    @Test func aFileNamedDashIsReachedAsDotSlashDash() async throws {
        let sandbox = try await CLISandbox.withPlayer("Arthur", score: 42)
        let export = try await sandbox.runShell("players export --format json ./-")
        #expect(export.output == "Exported the players of \(sandbox.databasePath) to ./- as JSON, encrypted.\n", "\(export.error)")
        let decrypt = try await sandbox.runShell("players decrypt ./-")
        #expect(decrypt.status == 0, "\(decrypt.error)")
        #expect(decrypt.output.contains(#""name" : "Arthur""#))
    }
}
