import CipherDB
import Foundation
import PlayersServerStore
import TestSupport
import Testing

@Suite struct ServerPlayersDatabaseClosingTests {
    @Test func closingLeavesEveryPlayerInTheDatabaseFileAlone() throws {
        let folder = try TemporaryFolder()
        let configuration = storeFileConfiguration()
        let path = folder.path("server.db")
        let store = try ServerPlayersDatabase(DatabasePool(path: path, configuration: configuration))
        try store.seed(20)
        let deleted = try #require(try store.snapshot(limit: 1).players.first)
        try store.delete(deleted.uuid)
        _ = try store.delta(since: 0, limit: 5)
        try store.purgeTombstones(olderThan: 3600)
        try store.refresh()
        let players = try store.snapshot(limit: 100).players
        try store.close()
        // The -wal file is empty or gone: everything is in the file.
        let walSize = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
        #expect(walSize == 0)

        let copy = folder.path("copy.db")
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        let copied = try ServerPlayersDatabase(DatabaseQueue(path: copy, configuration: configuration))
        #expect(try copied.snapshot(limit: 100).players == players)
        #expect(try copied.integrityCheck() == ["ok"])
    }
}
