import CipherDB
import Foundation
import PlayersOnServer
import PlayersShared
import ServerTestSupport
import SyncServer
import SyncServerEmbedded
import TestSupport
import Testing

@Suite struct ServerDatabaseClosingTests {
    /// The players of a server database file opened as the server does.
    func store(_ writer: any DatabaseWriter) throws -> PlayersTestStore {
        PlayersTestStore(EmbeddedSyncStore(try ServerSyncDatabase(writer, schema: PlayersSchema.schema)))
    }

    @Test func closingLeavesEveryPlayerInTheDatabaseFileAlone() async throws {
        let folder = try TemporaryFolder()
        let configuration = storeFileConfiguration()
        let path = folder.path("server.db")
        let store = try self.store(DatabasePool(path: path, configuration: configuration))
        try await store.seed(20)
        let deleted = try #require(try await store.allPlayers().first)
        try await store.delete(deleted.uuid)
        _ = try await store.engine.changes(after: 0, limit: 5, tables: nil)
        try await store.engine.purgeTombstones(olderThan: 3600, now: Date())
        _ = try await PlayersDemo(store.engine)!.refresh()
        let players = try await store.allPlayers()
        try await store.close()
        // The -wal file is empty or gone: everything is in the file.
        let walSize = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
        #expect(walSize == 0)

        let copy = folder.path("copy.db")
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        let copiedFile = try DatabaseQueue(path: copy, configuration: configuration)
        #expect(try await copiedFile.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") } == ["ok"])
        let copied = try self.store(copiedFile)
        #expect(try await copied.allPlayers() == players)
        try await copied.close()
    }

    /// Another connection reads as the store closes (another program's, as
    /// SQLite sees it: the same locks): the store closes all the same and
    /// says so; the WAL stays for that reader, and nothing is lost.
    @Test func closingWhileAnotherConnectionReadsKeepsTheWALAndSaysSo() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("server.db")
        let store = try self.store(DatabasePool(path: path, configuration: storeFileConfiguration()))
        try await store.seed(3)
        var readerConfiguration = storeFileConfiguration()
        readerConfiguration.allowsUnsafeTransactions = true
        let reader = try DatabaseQueue(path: path, configuration: readerConfiguration)
        try await reader.writeWithoutTransaction { db in try db.execute(sql: "BEGIN DEFERRED; SELECT COUNT(*) FROM sync_server_row") }

        await #expect(throws: SyncStoreError.closedInUse(path: path)) { try await store.close() }
        #expect(FileManager.default.fileExists(atPath: path + "-wal"))
        try await reader.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }
        #expect(try await reader.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sync_server_row") } == 3)
        try reader.close()
        // The last connection to close moved the WAL into the file.
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }
}
