import Foundation
import TestSupport
import Testing

/// A copy (backup, export) never replaces what the command reads: the
/// database under any name, its `-wal`, `-shm` and `-journal` files, or a
/// key file. Refused with exit 1 before anything is written, even with
/// `--force`.
@Suite struct CopyDestinationTests {
    /// Runs the command, and expects it refused with the database's files
    /// unchanged.
    func expectRefused(_ sandbox: CLISandbox, _ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let before = sandbox.databaseSnapshot()
        let keyBefore = try Data(contentsOf: URL(fileURLWithPath: sandbox.keyPath))
        let result = try await sandbox.run(arguments)
        #expect(result.status == 1, "\(result.error)", sourceLocation: sourceLocation)
        #expect(result.error.contains("which this command reads: choose another destination (nothing was written)"),
                "\(result.error)", sourceLocation: sourceLocation)
        #expect(sandbox.databaseSnapshot() == before, sourceLocation: sourceLocation)
        #expect(try Data(contentsOf: URL(fileURLWithPath: sandbox.keyPath)) == keyBefore, sourceLocation: sourceLocation)
        await #expect(try sandbox.run(["verify"]).status == 0, sourceLocation: sourceLocation)
    }

    @Test func aJSONExportOntoTheDatabaseIsRefused() async throws {
        let sandbox = try await CLISandbox.withPlayer("Arthur", score: 42)
        try await expectRefused(sandbox, ["export", "--format", "json", "--force", sandbox.databasePath])
    }

    @Test func copiesOntoTheFilesNextToTheDatabaseAreRefused() async throws {
        let sandbox = try await CLISandbox.withPlayer("Arthur", score: 42)
        for suffix in ["-wal", "-shm", "-journal"] {
            try await expectRefused(sandbox, ["backup", "--force", sandbox.databasePath + suffix])
            try await expectRefused(sandbox, ["export", "--force", sandbox.databasePath + suffix])
        }
    }

    @Test func anotherSpellingOfTheDatabaseIsRefused() async throws {
        let sandbox = try await CLISandbox.withPlayer("Arthur", score: 42)
        let folder = URL(fileURLWithPath: sandbox.databasePath).deletingLastPathComponent()
        // A path through "..", and through a symbolic link to the folder.
        try await expectRefused(sandbox, ["backup", "--force", folder.path + "/../players/players.db"])
        let link = sandbox.root.appendingPathComponent("linked-folder")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: folder)
        try await expectRefused(sandbox, ["export", "--format", "json", "--force", link.appendingPathComponent("players.db").path])
    }

    @Test func aHardLinkOfTheDatabaseIsRefused() async throws {
        let sandbox = try await CLISandbox.withPlayer("Arthur", score: 42)
        let hardLink = sandbox.root.appendingPathComponent("same-inode.db").path
        #expect(link(sandbox.databasePath, hardLink) == 0)
        try await expectRefused(sandbox, ["backup", "--force", hardLink])
    }

    @Test func aKeyFileIsRefused() async throws {
        let sandbox = try await CLISandbox.withPlayer("Arthur", score: 42)
        try await expectRefused(sandbox, ["export", "--format", "json", "--force", sandbox.keyPath])
        let other = try sandbox.writeSecret("other.key", String(repeating: "cd", count: 32) + "\n")
        try await expectRefused(sandbox, ["backup", "--force", "--to-key-file", other, other])
    }

    @Test func restoringTheDatabaseOntoItselfIsRefused() async throws {
        let sandbox = try await CLISandbox.withPlayer("Arthur", score: 42)
        let before = sandbox.databaseSnapshot()
        let result = try await sandbox.run(["restore", sandbox.databasePath])
        #expect(result.status == 1)
        #expect(result.error.contains("is the database itself, not a backup of it: nothing was restored"), "\(result.error)")
        #expect(sandbox.databaseSnapshot() == before)
    }
}
