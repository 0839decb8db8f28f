import CipherDB
import CipherSync
import Foundation
import Players
import PlayersOnServer
import PlayersShared
import PlayersSync
import ServerTestSupport
import SyncEngine
import SyncSchema
import SyncServerEmbedded
import SyncServerHTTP
import TestSupport
import Testing

/// A players database of the release before the sync engine's client
/// (Server/Tests/Fixtures/players-client-before-engine.sql, made by that
/// release's code and synced with players-client-before-engine.server.sql):
/// the migration `v7-sync-engine` keeps every player, version, queued
/// change, conflict, the cursor and the remote, and the first sync after
/// it, with the server it synced with, converges with the sent change
/// applied once.
@Suite struct PlayersEngineUpgradeTests {
    static let fixtures = BuiltProducts.serverPackageRoot.appendingPathComponent("Tests/Fixtures")

    static func id(_ number: Int) -> UUID {
        UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", number))!
    }

    /// The fixture's client database, written to an encrypted file of
    /// `folder`, then opened (and so migrated) by this release.
    static func migratedClient(_ folder: TemporaryFolder) throws -> AppDatabase {
        let dump = try String(contentsOf: fixtures.appendingPathComponent("players-client-before-engine.sql"), encoding: .utf8)
        let queue = try connection(folder)
        try queue.writeWithoutTransaction { db in try db.execute(sql: dump) }
        try queue.close()
        return try AppDatabase.open(at: folder.url("players.db"), key: key)
    }

    static let key = DatabaseKeySource.rawKey { Data(repeating: 0x5A, count: 32) }

    /// A connection of its own to the client's file, keyed and set up as
    /// the app's are.
    static func connection(_ folder: TemporaryFolder) throws -> DatabaseQueue {
        var configuration = Configuration()
        key.configure(&configuration)
        return try DatabaseQueue(path: folder.path("players.db"), configuration: AppDatabase.makeConfiguration(configuration))
    }

    @Test func everyPlayerAndVersionIsKeptAndDeletedIdsAreNotReused() throws {
        let folder = try TemporaryFolder()
        let appDatabase = try Self.migratedClient(folder)
        let players = try appDatabase.reader.read { db in
            try Row.fetchAll(db, Player.select(Player.Columns.id, Player.Columns.name, Player.Columns.score, Player.versionExpression)
                .order(Player.Columns.id))
                .map { "\($0[0] as Int64) \($0[1] as String) \($0[2] as Int) \(($0[3] as Int64?).map { "v\($0)" } ?? "-")" }
        }
        #expect(players == ["1 Arthur 110 v1", "2 Barbara | Zoé 250 v5", "4 Dora 460 v4", "5 Éva 500 -"])
        var player = Player(name: "Fred", score: 1)
        try appDatabase.savePlayer(&player)
        #expect(player.id == 6)
        #expect(try appDatabase.reader.read { db in try Player.all().orderedByName().fetchAll(db) }.map(\.name)
                == ["Arthur", "Barbara | Zoé", "Dora", "Éva", "Fred"])
    }

    @Test func theQueuedChangesKeepTheirOrderIdsAndBaseVersionsAndTheSentOneItsValues() throws {
        let folder = try TemporaryFolder()
        let appDatabase = try Self.migratedClient(folder)
        let entries = try appDatabase.reader.read { db in try SyncOutboxEntry.inPushOrder().fetchAll(db) }
        #expect(entries.map(\.mutationID.uuidString) == ["71A08C9A-C860-4546-A4B9-4E5B8D7153C7", "6F00E2EC-86D4-4516-BE8E-5979AEA4C883",
                                                         "14176B36-1A1D-48EB-865B-C53F69322BFF", "DC0604F0-9241-432D-814E-E426015A5235",
                                                         "8F299BEF-9A63-4F14-B32F-A125D68E9AE8"])
        #expect(entries.map(\.rowID) == [Self.id(4), Self.id(4), Self.id(1), Self.id(3), Self.id(5)])
        #expect(entries.map(\.operation) == [.upsert, .upsert, .upsert, .delete, .upsert])
        #expect(entries.map(\.baseVersion) == [4, 4, 1, 3, nil])
        #expect(entries.map { $0.sentAt != nil } == [true, false, false, false, false])

        // The next push: Dora's sent edit again, as it was sent (450, not
        // 460), then one change of each other player.
        let batch = try Self.connection(folder).write { db in try db.nextSyncPushBatch(for: PlayersSchema.schema) }
        #expect(batch.map(\.mutationID) == [entries[0], entries[2], entries[3], entries[4]].map(\.mutationID))
        #expect(batch.map(\.row.values) == [
            ["name": .text("Dora"), "score": .integer(450)],
            ["name": .text("Arthur"), "score": .integer(110)],
            [:],
            ["name": .text("Éva"), "score": .integer(500)],
        ])
    }

    @Test func theConflictKeepsBothValues() throws {
        let folder = try TemporaryFolder()
        let appDatabase = try Self.migratedClient(folder)
        let conflicts = try appDatabase.conflicts()
        #expect(conflicts.count == 1)
        let conflict = try #require(conflicts.first)
        #expect(conflict.playerUUID == Self.id(2))
        #expect(conflict.localName == "Barbara II" && conflict.localScore == 200)
        #expect(conflict.serverName == "Barbara | Zoé" && conflict.serverScore == 250 && conflict.serverVersion == 5)

        #expect(try appDatabase.resolveConflicts(of: Self.id(2), keepLocal: true))
        #expect(try appDatabase.reader.read { db in try Player.fetchOne(db, id: 2) }?.name == "Barbara II")
    }

    @Test func theCursorAndTheRemoteAreKeptForTheEnginesEndpoint() throws {
        let folder = try TemporaryFolder()
        let appDatabase = try Self.migratedClient(folder)
        let position = try appDatabase.reader.read { db in try db.syncPosition() }
        #expect(position.endpoint == "http://127.0.0.1:43541/v1/sync/rows?tables=player")
        #expect(position.cursor == "5.62f56f577caf7345.36617EB2-B950-414F-9428-0CB4E2EC8CA7")
        #expect(position.etag == nil)
        #expect(try appDatabase.remoteURL()?.absoluteString == "http://127.0.0.1:43541")
    }

    @Test func theTablesOfTheReleaseBeforeAreGoneAndTheSchemaIsKnown() throws {
        let folder = try TemporaryFolder()
        let appDatabase = try Self.migratedClient(folder)
        try appDatabase.reader.read { (db) throws in
            for table in ["pendingChange", "playerConflict", "syncState", "syncedPlayerDigest", "player_v6"] {
                #expect(try !db.tableExists(table), "\(table)")
            }
            #expect(try db.columns(in: "player").map(\.name) == ["id", "uuid", "name", "score", "nameOrderKey"])
            #expect(try AppDatabase.unknownSchemaEntries(db).isEmpty)
        }
    }

    /// The first sync after the upgrade, with the server database the
    /// client synced with: the server had applied Dora's sent edit (version
    /// 6) and the client lost the answer. The retry is answered as the
    /// first time, nothing is applied twice, every other change is pushed,
    /// the pull continues from the kept cursor, and both hold the same
    /// players, the conflict still kept.
    @Test func theFirstSyncAppliesTheSentChangeOnceAndConverges() async throws {
        let folder = try TemporaryFolder()
        let appDatabase = try Self.migratedClient(folder)
        let dump = try String(contentsOf: Self.fixtures.appendingPathComponent("players-client-before-engine.server.sql"), encoding: .utf8)
        let serverQueue = try DatabaseQueue()
        try await serverQueue.writeWithoutTransaction { db in try db.execute(sql: dump) }
        let engine = EmbeddedSyncStore(try ServerSyncDatabase(serverQueue, schema: PlayersSchema.schema))
        var configuration = ServerConfiguration()
        // The fixture's answers and tombstones are from 2026-11-28: kept.
        configuration.tombstoneRetention = 100 * 365 * 86_400
        try await LiveServer.serve(SyncServerAPI(engine: engine, configuration: configuration).makeRouter()) { port in
            let url = URL(string: "http://127.0.0.1:\(port)")!
            // The same server, on another port than when the fixture synced.
            try await Self.connection(folder).write { db in
                try db.execute(sql: "UPDATE sync_state SET endpoint = replace(endpoint, ':43541/', ?)", arguments: [":\(port)/"])
            }
            let report = try await appDatabase.syncClient(baseURL: url, transport: fastTransport()).syncPlayers()
            #expect(report.push.counts.applied == 5 && report.push.counts.conflicts == 0)
            #expect(report.pull.kind == .delta)
            #expect(report.pull.repaired == nil)
            // Four new versions (Arthur, Cédric's delete, Éva, Dora again):
            // Dora's first edit kept its version 6.
            #expect(try report.pull.cursorAfter.map { try SyncCursor($0).counter } == 10)

            let store = PlayersTestStore(engine)
            let server = try await store.allPlayers().map { "\($0.name) \($0.score) v\($0.version)" }.sorted()
            #expect(server == ["Arthur 110 v7", "Barbara | Zoé 250 v5", "Dora 460 v10", "Éva 500 v9"])
            let client = try await appDatabase.reader.read { db in
                try Row.fetchAll(db, Player.select(Player.Columns.name, Player.Columns.score, Player.versionExpression))
                    .map { "\($0[0] as String) \($0[1] as Int) v\(($0[2] as Int64?) ?? 0)" }.sorted()
            }
            #expect(client == server)
            #expect(try appDatabase.pendingChangeCount() == 0)
            #expect(try appDatabase.conflicts().map(\.localName) == ["Barbara II"])
        }
    }
}
