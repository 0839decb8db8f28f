import CipherDB
import Foundation
import ServerTestSupport
import SyncSchema
import Synchronization
import TestSupport
import Testing

@Suite struct ServerBackupTests {
    @Test func backupWhileWritesGoOnIsConsistentEncryptedAndComplete() async throws {
        let server = try ServerProcess(["--database", "server.db", "--seed", "50"], environment: ServerDatabase.environment)
        let writing = Atomic(true)
        let writes = Atomic(0)
        let writerEnded = Atomic(false)
        let writer = Task {
            try await onThread {
                defer { writerEnded.store(true, ordering: .relaxed) }
                var index = 0
                while writing.load(ordering: .relaxed) {
                    _ = try server.request("POST", "/v1/rows/player", headers: jsonHeaders, body: playerJSON(index))
                    writes.add(1, ordering: .relaxed)
                    index += 1
                }
            }
        }
        // A writer that stopped (a failed request) fails the test with its error.
        // The writer's new task may wait minutes for a thread in a full run
        // on two loaded cores: a longer hang guard.
        try await waitUntil("writes through players-server before the backup", timeout: hangGuard * 5) {
            if writerEnded.load(ordering: .relaxed) { try await writer.value }
            return writes.load(ordering: .relaxed) >= 3
        }
        let result = try await ServerProcess.run(["backup", "--database", "server.db", "backup.db"],
                                           environment: ServerDatabase.environment, in: server.folder)
        // The second write acknowledged after the backup began after it too.
        let writesAtBackupEnd = writes.load(ordering: .relaxed)
        try await waitUntil("writes through players-server after the backup") { writes.load(ordering: .relaxed) >= writesAtBackupEnd + 2 }
        writing.store(false, ordering: .relaxed)
        try await writer.value
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == "Backed up server.db to backup.db, encrypted.\n")
        #expect(writes.load(ordering: .relaxed) > 0)

        let backup = server.path("backup.db")
        let header = try FileHandle(forReadingFrom: URL(fileURLWithPath: backup)).read(upToCount: 16) ?? Data()
        #expect(header != Data("SQLite format 3\0".utf8))
        try Self.checkSnapshot(backup)
        #expect(try ServerDatabase.playerCount(server.path("server.db")) > (try ServerDatabase.playerCount(backup)))
    }

    /// An intact copy of one moment: only inserts ran, so the counter is
    /// the number of players.
    static func checkSnapshot(_ backup: String) throws {
        let queue = try ServerDatabase.open(backup)
        try queue.read { db in
            #expect(try String.fetchAll(db, sql: "PRAGMA integrity_check") == ["ok"])
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sync_server_row WHERE \(ServerDatabase.livePlayers)") ?? 0
            #expect(count >= 50)
            #expect(try Int.fetchOne(db, sql: "SELECT value FROM sync_server_counter") == count)
        }
    }

    @Test func backupRefusesAnExistingDestinationAMissingDatabaseAndAWrongKey() async throws {
        let server = try ServerProcess(["--database", "server.db", "--seed", "5"], environment: ServerDatabase.environment)
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: server.path("taken.db")))
        let cases: [([String], [String: String], String)] = [
            (["backup", "--database", "server.db", "taken.db"], ServerDatabase.environment, "already exists"),
            (["backup", "--database", "missing.db", "new.db"], ServerDatabase.environment, "does not exist"),
            (["backup", "--database", "server.db", "new.db"], ["PLAYERS_PASSPHRASE": "wrong"], "passphrase or key is wrong"),
        ]
        for (arguments, environment, message) in cases {
            let result = try await ServerProcess.run(arguments, environment: environment, in: server.folder)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.error.contains(message), "\(result.error)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: server.path("taken.db"))) == Data("keep me".utf8))
        let files = try FileManager.default.contentsOfDirectory(atPath: server.folder.path)
        #expect(!files.contains("missing.db") && !files.contains { $0.hasPrefix("new.db") || $0.hasSuffix(".tmp") })
        let usage = try await ServerProcess.run(["backup", "--database", "server.db", "new.db"], in: server.folder)
        #expect(usage.status == 2)
        let forced = try await ServerProcess.run(["backup", "--database", "server.db", "--force", "taken.db"],
                                           environment: ServerDatabase.environment, in: server.folder)
        #expect(forced.status == 0, "\(forced.error)")
        #expect(try ServerDatabase.playerCount(server.path("taken.db")) == 5)
    }

    /// Docs/Server.md, "Backups": the command as written, then the restore
    /// it describes.
    @Test func documentedBackupCommandRunsAsWrittenAndRestores() async throws {
        let server = try ServerProcess(["--database", "server.db", "--passphrase-file", "passphrase", "--seed", "5"],
                                       folder: try Self.folderWithPassphraseFile())
        let before = try SyncCursor(try SyncPage.players(try server.request("GET", "/v1/sync/rows").body).cursor)
        let result = try await ServerProcess.run(
            ["backup", "--database", "server.db", "--passphrase-file", "passphrase", "server-backup.db"], in: server.folder)
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == "Backed up server.db to server-backup.db, encrypted.\n")
        #expect(try ServerDatabase.playerCount(server.path("server-backup.db")) == 5)
        let backedUp = try ServerDatabase.players(server.path("server-backup.db"))

        for index in 0..<3 {
            #expect(try server.request("POST", "/v1/rows/player", headers: jsonHeaders, body: playerJSON(index)).status == 201)
        }
        #expect(try server.stop() == 0)
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: server.path("server.db" + suffix)) }
        try FileManager.default.removeItem(atPath: server.path("server.db"))
        try FileManager.default.copyItem(atPath: server.path("server-backup.db"), toPath: server.path("server.db"))
        #expect(try ServerDatabase.players(server.path("server.db")) == backedUp)
        let restarted = try ServerProcess(["--database", "server.db", "--passphrase-file", "passphrase"], folder: server.folder)
        let snapshot = try restarted.request("GET", "/v1/sync/rows")
        #expect(snapshot.status == 200)
        // The restored database begins a new epoch at the backup's
        // counter: cursors from after it name the epoch before.
        let page = try SyncPage.players(snapshot.body)
        let cursor = try SyncCursor(page.cursor)
        #expect(cursor.counter == 5)
        #expect(page.epochs?.map(\.start) == [0, 5])
        #expect(page.epochs?.last?.epoch == cursor.epoch)
        #expect(cursor.server == before.server && cursor.epoch != before.epoch)
    }

    static func folderWithPassphraseFile() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        _ = FileManager.default.createFile(atPath: folder.path("passphrase"),
                                       contents: Data(ServerDatabase.passphrase.utf8), attributes: [.posixPermissions: 0o600])
        return folder
    }
}
