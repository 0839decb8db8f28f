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
        try sandbox.addPlayers((1...200).map { ("Player \($0)", $0) })
        await #expect(try sandbox.run(["add", "--name", "Arthur", "--score", "42"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: sandbox.databasePath + "-wal"))
        return sandbox
    }

    /// Garbage in the middle of the pages from `first` (SQLCipher's pages
    /// are 1,024 bytes): their HMACs no longer match.
    func damagePages(_ sandbox: CLISandbox, from first: Int, count: Int = 1) throws {
        let file = try FileHandle(forUpdating: URL(fileURLWithPath: sandbox.databasePath))
        defer { try? file.close() }
        let size = try file.seekToEnd()
        #expect(size >= UInt64(1024 * (first + count)), "the database has \(size) bytes")
        for page in first..<(first + count) {
            try file.seek(toOffset: UInt64(1024 * page + 500))
            try file.write(contentsOf: Data(repeating: 0x58, count: 16))
        }
    }

    @Test func aDamagedDatabaseFailsWithExitCode4() async throws {
        let sandbox = try await makeSandbox()
        try damagePages(sandbox, from: 2)
        let before = sandbox.databaseSnapshot()

        let result = try await sandbox.run(["verify"])
        #expect(result.status == 4, "\(result.error)")
        #expect(result.error.contains("verification of \(sandbox.databasePath) failed"), "\(result.error)")
        #expect(sandbox.databaseSnapshot() == before)
    }

    /// However many pages are damaged: one line per problem (never lines
    /// joined with escaped newlines), at most 20 and a count of the rest,
    /// then the verdict with the number of problems. Zeroed pages (which
    /// SQLCipher reads as blank, not as a failed HMAC) give
    /// `integrity_check` a problem each, and it reports more than 20 here.
    @Test func damageIsListedOneLineEachBoundedWithACount() async throws {
        let sandbox = try CLISandbox()
        try await sandbox.runChecked(["init"])
        try sandbox.insertPlayers(count: 5_000)
        let file = try FileHandle(forUpdating: URL(fileURLWithPath: sandbox.databasePath))
        let pages = Int(try file.seekToEnd() / 1024)
        #expect(pages > 600)
        // Every other page of the second half, where the player table, its
        // indexes and the outbox's rows are (the layout of these 5,000
        // rows is always the same): mostly leaf pages, each a problem of
        // its own (a zeroed interior page stops integrity_check's walk of
        // its tree at its first problem).
        for page in stride(from: pages / 2, to: pages - 1, by: 2) {
            try file.seek(toOffset: UInt64(1024 * page))
            try file.write(contentsOf: Data(count: 1024))
        }
        try file.close()

        let result = try await sandbox.run(["verify"])
        #expect(result.status == 4, "\(result.error)")
        let lines = result.error.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.allSatisfy { $0.hasPrefix("players: ") && !$0.contains("\\u{") }, "\(result.error)")
        #expect(lines.count == 22, "\(result.error)")
        #expect(lines.first?.hasPrefix("players: integrity check: Page ") == true, "\(result.error)")
        let more = try #require(lines.dropLast().last.flatMap { Int($0.split(separator: " ")[3]) }, "\(result.error)")
        #expect(lines.last == "players: verification of \(sandbox.databasePath) failed: \(20 + more) problems", "\(result.error)")
    }

    @Test func listingADamagedDatabaseFailsWithExitCode4() async throws {
        let sandbox = try await makeSandbox()
        // The player table's first page, which every listing reads.
        let root = try await sandbox.keyedQueue(at: sandbox.databasePath).read { db in
            try Int.fetchOne(db, sql: "SELECT rootpage FROM sqlite_master WHERE name = 'player'")
        }
        // Page numbers start at 1.
        try damagePages(sandbox, from: try #require(root) - 1)
        let result = try await sandbox.run(["list"])
        #expect(result.status == 4, "\(result.error)")
        #expect(result.error.contains("the database file is damaged"), "\(result.error)")
    }

    @Test func aDirectoryIsNotTakenForADatabase() async throws {
        let sandbox = try CLISandbox()
        for command in [["list"], ["verify"]] {
            let result = try await sandbox.run(["-d", sandbox.root.path] + command)
            #expect(result.status == 1, "\(result.error)")
            #expect(result.error == "players: \(sandbox.root.path) is a directory, not a database file: give the database's file with --database\n")
        }
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
