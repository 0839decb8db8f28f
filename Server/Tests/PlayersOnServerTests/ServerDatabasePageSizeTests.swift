import AppFiles
import CipherDB
import Foundation
import PlayersOnServer
import PlayersShared
import SyncServer
import ServerTestSupport
import SyncServerEmbedded
import TestSupport
import Testing

/// The size of the pages of the server's file (``ServerDatabasePageSize``):
/// 4 KiB for a new file, 1 KiB kept for a file of an earlier release, and
/// a backup's pages of its source's size, each.
@Suite struct ServerDatabasePageSizeTests {
    let key = DatabaseKeySource.rawKey { Data(repeating: 0x2A, count: 32) }

    /// The size that opens the file at `path`, read-only; nil for none.
    func pageSizeThatOpens(_ path: String) throws -> Int? {
        for size in [1024, 4096] {
            var configuration = Configuration()
            configuration.readonly = true
            key.configure(&configuration)
            configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA cipher_page_size = \(size)") }
            do {
                let queue = try DatabaseQueue(path: path, configuration: configuration)
                defer { try? queue.close() }
                _ = try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") }
                return size
            } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
                continue
            }
        }
        return nil
    }

    @Test func aNewFileHasPagesOf4KiB() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("server.db")
        let store = EmbeddedSyncStore(try ServerDatabaseFile.open(atPath: path, key: key, schema: PlayersSchema.schema))
        try await store.close()
        #expect(try pageSizeThatOpens(path) == 4096)
        #expect(try ServerDatabasePageSize.of(fileAt: path, configuration: try ServerDatabaseFile.configuration(ofFileAt: path, key: key)) == .current)

        let source = try DatabasePool(path: path, configuration: try ServerDatabaseFile.configuration(ofFileAt: path, key: key))
        try DatabaseFileOperations.backup(reader: source, to: URL(fileURLWithPath: folder.path("backup.db")), destinationKey: key)
        try source.close()
        #expect(try pageSizeThatOpens(folder.path("backup.db")) == 4096)
    }

    @Test func aFileOfAnEarlierReleaseKeepsItsPagesOf1KiBAndItsRows() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path("server.db")
        // A store of SQLCipher's default pages, as the releases before made.
        var earlier = Configuration()
        key.configure(&earlier)
        let before = PlayersTestStore(EmbeddedSyncStore(try ServerSyncDatabase(try DatabasePool(path: path, configuration: earlier),
                                                                              schema: PlayersSchema.schema)))
        try await before.seed(3)
        let players = try await before.allPlayers()
        try await before.close()
        #expect(players.count == 3)

        let reopened = PlayersTestStore(EmbeddedSyncStore(try ServerDatabaseFile.open(atPath: path, key: key, schema: PlayersSchema.schema)))
        #expect(try await reopened.allPlayers() == players)
        try await reopened.close()
        #expect(try pageSizeThatOpens(path) == 1024)

        // Its backup keeps its pages: SQLCipher copies pages of one size.
        let source = try DatabasePool(path: path, configuration: try ServerDatabaseFile.configuration(ofFileAt: path, key: key))
        try DatabaseFileOperations.backup(reader: source, to: URL(fileURLWithPath: folder.path("backup.db")), destinationKey: key)
        try source.close()
        #expect(try pageSizeThatOpens(folder.path("backup.db")) == 1024)
    }
}
