import Foundation
import TestSupport
import Testing

/// `players verify`: 0 for a sound database, 4 for a damaged one, 3 for a
/// key that does not open it; it never changes the database.
@Suite struct VerifyCommandTests {
    /// A database with enough players to span several pages, checkpointed
    /// into its file (the command that wrote last closed it).
    func makeSandbox() async throws -> CLISandbox {
        let sandbox = try CLISandbox()
        await #expect(try sandbox.run(["init"]).status == 0)
        for _ in 0..<20 { await #expect(try sandbox.run(["randomize"]).status == 0) }
        await #expect(try sandbox.run(["add", "--name", "Arthur", "--score", "42"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: sandbox.databasePath + "-wal"))
        return sandbox
    }

    @Test func aDamagedDatabaseFailsWithExitCode4() async throws {
        let sandbox = try await makeSandbox()
        let file = try FileHandle(forUpdating: URL(fileURLWithPath: sandbox.databasePath))
        let size = try file.seekToEnd()
        #expect(size >= 4096)
        // Garbage in the middle of the third page: its HMAC no longer matches.
        try file.seek(toOffset: 2048 + 500)
        try file.write(contentsOf: Data(repeating: 0x58, count: 16))
        try file.close()
        let before = sandbox.databaseSnapshot()

        let result = try await sandbox.run(["verify"])
        #expect(result.status == 4, "\(result.error)")
        #expect(result.error.contains("verification of \(sandbox.databasePath) failed"), "\(result.error)")
        #expect(sandbox.databaseSnapshot() == before)
    }

    @Test func aWrongKeyFailsWithExitCode3() async throws {
        let sandbox = try await makeSandbox()
        let before = sandbox.databaseSnapshot()
        let passphrase = try sandbox.writeSecret("wrong", "not the key\n")
        let result = try await sandbox.run(["verify", "--passphrase-file", passphrase])
        #expect(result.status == 3, "\(result.error)")
        #expect(result.error.contains("the passphrase or key is wrong"))
        #expect(sandbox.databaseSnapshot() == before)
    }

    @Test func aSoundDatabasePasses() async throws {
        let sandbox = try await makeSandbox()
        let result = try await sandbox.run(["verify"])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == "OK: \(sandbox.databasePath) is intact, consistent and encrypted.\n")
    }
}
