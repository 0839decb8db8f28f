import CipherDB
import Foundation
import Players
import PlayersShared
import SyncEngine
import SyncSchema
import TestSupport
import Testing

/// The players' outbox, the sync engine's: whatever writes a player
/// records its change in the same transaction, and the push reads it in
/// order. (The engine's own tests cover its answers and conflicts for any
/// table; these cover what Players writes.)
@Suite struct OutboxTests {
    private func entries(_ appDatabase: AppDatabase) throws -> [SyncOutboxEntry] {
        try appDatabase.reader.read { db in try SyncOutboxEntry.inPushOrder().fetchAll(db) }
    }

    /// The next batch, marked sent, as a push takes it.
    @discardableResult
    private func send(_ appDatabase: AppDatabase) throws -> [SyncPushChange] {
        try appDatabase.dbWriter.write { db in try db.nextSyncPushBatch(for: PlayersSchema.schema) }
    }

    @Test(arguments: Storage.allCases)
    func aNewPlayerIsRecordedAsAnUpsertOfItsColumnsWithoutBaseVersion(_ storage: Storage) throws {
        let database = try TestDatabase(storage)
        var player = Player(name: "Arthur", score: 100)
        try database.appDatabase.savePlayer(&player)

        let entries = try entries(database.appDatabase)
        let entry = try #require(entries.first)
        #expect(entries.count == 1)
        #expect(entry.table == "player" && entry.rowID == player.uuid && entry.operation == .upsert)
        #expect(entry.changedColumns == ["score", "name"])
        #expect(entry.baseVersion == nil && entry.sentAt == nil)
        let sent = try send(database.appDatabase)
        #expect(sent.map(\.row.values) == [["name": .text("Arthur"), "score": .integer(100)]])
    }

    @Test(arguments: Storage.allCases)
    func editsOfAnUnsentChangeJoinIt(_ storage: Storage) throws {
        let database = try TestDatabase(storage)
        var player = Player(name: "Arthur", score: 100)
        try database.appDatabase.savePlayer(&player)
        let first = try entries(database.appDatabase)[0]

        _ = try database.appDatabase.updatePlayer(id: player.id!) { $0.score = 200 }
        _ = try database.appDatabase.updatePlayer(id: player.id!) { $0.name = "Barbara" }

        let entries = try entries(database.appDatabase)
        #expect(entries.map(\.mutationID) == [first.mutationID])
        #expect(try send(database.appDatabase).map(\.row.values) == [["name": .text("Barbara"), "score": .integer(200)]])
    }

    @Test(arguments: Storage.allCases)
    func anUpdateThatChangesNothingRecordsNothing(_ storage: Storage) throws {
        let database = try TestDatabase(storage)
        let player = try syncedPlayer(database.appDatabase, version: 3)

        _ = try database.appDatabase.updatePlayer(id: player.id!) { $0.score = 100 }

        #expect(try entries(database.appDatabase).isEmpty)
    }

    @Test(arguments: Storage.allCases)
    func anEditAfterTheChangeWasSentIsANewEntryAndTheSentOneKeepsItsValues(_ storage: Storage) throws {
        let database = try TestDatabase(storage)
        var player = Player(name: "Arthur", score: 100)
        try database.appDatabase.savePlayer(&player)
        let batch = try send(database.appDatabase)

        _ = try database.appDatabase.updatePlayer(id: player.id!) { $0.score = 200 }

        let entries = try entries(database.appDatabase)
        #expect(entries.count == 2)
        #expect(entries[0].mutationID == batch[0].mutationID && entries[0].sentAt != nil)
        #expect(entries[1].changedColumns == ["score"] && entries[1].sentAt == nil)
        // The retry of the sent change is the same request.
        #expect(try send(database.appDatabase) == batch)
    }

    @Test(arguments: Storage.allCases)
    func aPlayerDeletedBeforeItsFirstPushIsNeverSent(_ storage: Storage) throws {
        let database = try TestDatabase(storage)
        var player = Player(name: "Arthur", score: 100)
        try database.appDatabase.savePlayer(&player)
        _ = try database.appDatabase.updatePlayer(id: player.id!) { $0.score = 200 }

        try database.appDatabase.deletePlayers(exactly: [player.id!])

        #expect(try entries(database.appDatabase).isEmpty)
        #expect(try database.appDatabase.pendingChangeCount() == 0)
    }

    @Test(arguments: Storage.allCases)
    func aPlayerDeletedAfterItsCreationWasSentIsDeletedOnTheServerToo(_ storage: Storage) throws {
        let database = try TestDatabase(storage)
        var player = Player(name: "Arthur", score: 100)
        try database.appDatabase.savePlayer(&player)
        try send(database.appDatabase)

        try database.appDatabase.deletePlayers(exactly: [player.id!])

        #expect(try entries(database.appDatabase).map(\.operation) == [.upsert, .delete])
    }

    @Test(arguments: Storage.allCases)
    func deletingASyncedPlayerReplacesItsUnsentChangesWithOneDeleteOnItsVersion(_ storage: Storage) throws {
        let database = try TestDatabase(storage)
        let player = try syncedPlayer(database.appDatabase, version: 7)
        _ = try database.appDatabase.updatePlayer(id: player.id!) { $0.score = 300 }

        try database.appDatabase.deleteAllPlayers()

        let entries = try entries(database.appDatabase)
        #expect(entries.map(\.operation) == [.delete])
        #expect(entries.first?.baseVersion == 7)
    }

    @Test(arguments: Storage.allCases)
    func aWriteThatFailsRecordsNothing(_ storage: Storage) throws {
        let database = try TestDatabase(storage)
        let player = try syncedPlayer(database.appDatabase, version: 7)

        #expect(throws: AppDatabaseError.missingPlayers([999])) { try database.appDatabase.deletePlayers(exactly: [player.id!, 999]) }

        #expect(try entries(database.appDatabase).isEmpty)
        #expect(try database.appDatabase.reader.read(Player.fetchCount(_:)) == 1)
    }

    @Test(arguments: Storage.allCases)
    func theRandomRefreshRecordsEachOfItsChanges(_ storage: Storage) throws {
        let database = try TestDatabase(storage)
        try database.appDatabase.createRandomPlayersIfEmpty()
        #expect(try entries(database.appDatabase).count == 8)
        try clearOutbox(database.appDatabase)
        let before = try database.appDatabase.reader.read(Player.fetchAll)

        try database.appDatabase.refreshPlayers()

        // Each change of the refresh is one entry: the players it inserted
        // or changed are upserts, the one it deleted (synced by
        // clearOutbox) a delete on its version. (A refresh, random as the
        // seeds', may change nothing: then there is no entry.)
        let entries = try entries(database.appDatabase)
        let players = try database.appDatabase.reader.read(Player.fetchAll)
        let changedUUIDs = Set(before.map(\.uuid)).symmetricDifference(players.map(\.uuid))
            .union(players.filter { player in before.contains { $0.uuid == player.uuid && $0 != player } }.map(\.uuid))
        #expect(Set(entries.map(\.rowID)) == changedUUIDs)
        for entry in entries {
            if players.contains(where: { $0.uuid == entry.rowID }) {
                #expect(entry.operation == .upsert)
            } else {
                #expect(entry.operation == .delete && entry.baseVersion != nil)
            }
        }
        #expect(Set(entries.map(\.rowID)).count == entries.count)
    }

    @Test(arguments: Storage.allCases)
    func aPlayerTheServerWouldRefuseIsRefusedAndNothingIsRecorded(_ storage: Storage) throws {
        let database = try TestDatabase(storage)
        var bad = Player(name: "Bad\u{1B}[2J", score: 1)
        #expect(throws: PlayerValidationError.self) { try database.appDatabase.savePlayer(&bad) }
        var player = Player(name: "  Arthur  ", score: 1)
        try database.appDatabase.savePlayer(&player)
        #expect(player.name == "Arthur")
        #expect(throws: PlayerValidationError.self) { _ = try database.appDatabase.updatePlayer(id: player.id!) { $0.score = -1 } }

        #expect(try database.appDatabase.reader.read(Player.fetchAll) == [player])
        #expect(try send(database.appDatabase).map(\.row.values) == [["name": .text("Arthur"), "score": .integer(1)]])
    }

    @Test(arguments: Storage.allCases)
    func aPlayerWrittenInSQLIsRecordedToo(_ storage: Storage) throws {
        let database = try TestDatabase(storage)
        let uuid = UUID()
        try database.appDatabase.dbWriter.write { db in
            try db.execute(sql: "INSERT INTO player (uuid, name, score) VALUES (?, 'Zoé', 5)", arguments: [uuid.uuidString])
        }

        #expect(try entries(database.appDatabase).map(\.rowID) == [uuid])
        // The name's order key too, by its own trigger.
        let key = try database.appDatabase.reader.read { db in try String.fetchOne(db, sql: "SELECT nameOrderKey FROM player") }
        #expect(key == "zoe")
    }

    @Test func aDatabaseFromBeforeTheOutboxQueuesItsNeverSyncedPlayers() throws {
        let folder = try TemporaryFolder()
        let synced = UUID(), local = UUID()
        let queue = try databaseFromBeforeTheOutbox(folder) { db in
            try db.execute(sql: "INSERT INTO player (uuid, name, score, version) VALUES (?, 'Synced', 1, 4), (?, 'Local', 2, NULL)",
                           arguments: [synced.uuidString, local.uuidString])
        }

        let appDatabase = try AppDatabase(queue)

        let entries = try entries(appDatabase)
        #expect(entries.map(\.rowID) == [local])
        #expect(entries.first?.operation == .upsert && entries.first?.baseVersion == nil)
        let versions = try appDatabase.reader.read { db in
            try Row.fetchAll(db, Player.select(Player.Columns.name, Player.versionExpression).order(Player.Columns.id))
        }
        #expect(versions.map { "\($0[0] as String) \(($0[1] as Int64?).map(String.init) ?? "-")" } == ["Synced 4", "Local -"])
    }

    @Test func aQueuedPlayerTheServerWouldRefuseStopsTheSyncWithAFixAndNothingIsMarkedSent() throws {
        let folder = try TemporaryFolder()
        let queue = try databaseFromBeforeTheOutbox(folder) { db in
            try db.execute(sql: "INSERT INTO player (uuid, name, score) VALUES (?, 'Good', 1), (?, ?, 2)",
                           arguments: [UUID().uuidString, UUID().uuidString, "Bad\u{7}"])
        }
        let appDatabase = try AppDatabase(queue)

        #expect {
            try appDatabase.reader.read(AppDatabase.checkPendingPlayers)
        } throws: { error in
            "\(error)" == "player 2 cannot be pushed: its name contains a control character (U+0007), and it must be \(PlayerValidationError.nameRule); correct it with 'players edit' and sync again (nothing was sent)"
        }
        #expect(try entries(appDatabase).allSatisfy { $0.sentAt == nil })
    }

    // MARK: - Conflicts

    @Test(arguments: Storage.allCases)
    func aLostEditIsAConflictWithBothValuesAndTheServersWins(_ storage: Storage) throws {
        let database = try TestDatabase(storage)
        let appDatabase = database.appDatabase
        let uuid = try loseAnEdit(appDatabase)

        let conflicts = try appDatabase.conflicts()
        #expect(conflicts.count == 1)
        let conflict = try #require(conflicts.first)
        #expect(conflict.playerUUID == uuid)
        #expect(conflict.localName == "Arthur" && conflict.localScore == 300)
        #expect(conflict.serverName == "Arthur" && conflict.serverScore == 150 && conflict.serverVersion == 9)
        #expect(!conflict.localIsDeletion && !conflict.serverIsDeletion)
        #expect(try appDatabase.reader.read(Player.fetchOne)?.score == 150)
    }

    @Test(arguments: Storage.allCases)
    func keepingTheLocalValueQueuesItOnTheServersVersion(_ storage: Storage) throws {
        let database = try TestDatabase(storage)
        let appDatabase = database.appDatabase
        let uuid = try loseAnEdit(appDatabase)

        #expect(try appDatabase.resolveConflicts(of: uuid, keepLocal: true))

        #expect(try appDatabase.conflicts().isEmpty)
        #expect(try appDatabase.reader.read(Player.fetchOne)?.score == 300)
        #expect(try entries(appDatabase).map(\.baseVersion) == [9])
        #expect(try !appDatabase.resolveConflicts(of: uuid, keepLocal: true))
    }

    @Test(arguments: Storage.allCases)
    func keepingTheServersValueDropsTheLocalOne(_ storage: Storage) throws {
        let database = try TestDatabase(storage)
        let appDatabase = database.appDatabase
        let uuid = try loseAnEdit(appDatabase)

        #expect(try appDatabase.resolveConflicts(of: uuid, keepLocal: false))

        #expect(try appDatabase.conflicts().isEmpty)
        #expect(try appDatabase.reader.read(Player.fetchOne)?.score == 150)
        #expect(try entries(appDatabase).isEmpty)
    }

    // MARK: - Helpers

    /// A player as the server acknowledged it: with a version, and nothing
    /// to push.
    private func syncedPlayer(_ appDatabase: AppDatabase, version: Int64) throws -> Player {
        var player = Player(name: "Arthur", score: 100)
        try appDatabase.savePlayer(&player)
        try answer(appDatabase, send(appDatabase), status: .applied, version: version)
        return try #require(try appDatabase.reader.read(Player.fetchOne))
    }

    /// A database with the schema of migration v3, before the outbox, and
    /// the players that `insertPlayers` writes.
    private func databaseFromBeforeTheOutbox(_ folder: TemporaryFolder, insertPlayers: (Database) throws -> Void) throws -> DatabaseQueue {
        let queue = try DatabaseQueue(path: folder.url("old.db").path)
        try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                INSERT INTO grdb_migrations VALUES ('v1'), ('v2-sync-identity'), ('v3-sync-state');
                CREATE TABLE player (id INTEGER PRIMARY KEY AUTOINCREMENT, uuid TEXT NOT NULL UNIQUE, name TEXT NOT NULL, score INTEGER NOT NULL, version INTEGER);
                CREATE TABLE syncState (name TEXT PRIMARY KEY, remoteURL TEXT, cursorEndpoint TEXT, cursor TEXT, etag TEXT);
                """)
            try insertPlayers(db)
        }
        return queue
    }

    /// Records the server's answer to every change of `batch`, as a push
    /// does.
    private func answer(_ appDatabase: AppDatabase, _ batch: [SyncPushChange], status: SyncPushResult.Status,
                        version: Int64? = nil, serverRow: SyncRow? = nil) throws {
        let results = batch.map { SyncPushResult(mutationID: $0.mutationID, status: status, version: version, serverRow: serverRow) }
        _ = try appDatabase.dbWriter.write { db in try db.recordSyncPushResults(results, for: batch, schema: PlayersSchema.schema) }
    }

    /// Pushes every entry and records them as applied.
    private func clearOutbox(_ appDatabase: AppDatabase) throws {
        var version: Int64 = 100
        while case let batch = try send(appDatabase), !batch.isEmpty {
            let results = batch.map { change -> SyncPushResult in
                version += 1
                return SyncPushResult(mutationID: change.mutationID, status: .applied, version: version)
            }
            _ = try appDatabase.dbWriter.write { db in try db.recordSyncPushResults(results, for: batch, schema: PlayersSchema.schema) }
        }
    }

    /// An edit of a synced player (score 300) that lost to the server's
    /// score 150, version 9.
    private func loseAnEdit(_ appDatabase: AppDatabase) throws -> UUID {
        let player = try syncedPlayer(appDatabase, version: 7)
        _ = try appDatabase.updatePlayer(id: player.id!) { $0.score = 300 }
        let server = try PlayersSchema.player.row(id: player.uuid, values: ["name": .text("Arthur"), "score": .integer(150)])
        try answer(appDatabase, send(appDatabase), status: .conflict, version: 9, serverRow: server)
        return player.uuid
    }
}
