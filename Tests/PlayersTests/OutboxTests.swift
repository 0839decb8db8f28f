import CipherDB
import Foundation
import Players
import PlayersProtocol
import SyncSchema
import TestSupport
import Testing

/// The outbox (`pendingChange`): every write of AppDatabase records its
/// change in its own transaction, and the push reads it in order.
@Suite struct OutboxTests {
    private func entries(_ appDatabase: AppDatabase) throws -> [PendingChange] {
        try appDatabase.reader.read { db in try PendingChange.inPushOrder().fetchAll(db) }
    }

    @Test(arguments: Storage.allCases)
    func aNewPlayerIsRecordedAsASaveWithoutBaseVersion(_ storage: Storage) throws {
        let database = try TestDatabase(storage)
        var player = Player(name: "Arthur", score: 100)
        try database.appDatabase.savePlayer(&player)

        let entries = try entries(database.appDatabase)
        let entry = try #require(entries.first)
        #expect(entries.count == 1)
        #expect(entry.playerUUID == player.uuid && entry.kind == .save)
        #expect(entry.name == "Arthur" && entry.score == 100)
        #expect(entry.baseVersion == nil && entry.sentAt == nil)
    }

    @Test(arguments: Storage.allCases)
    func editsOfAnUnsentSaveChangeItInPlace(_ storage: Storage) throws {
        let database = try TestDatabase(storage)
        var player = Player(name: "Arthur", score: 100)
        try database.appDatabase.savePlayer(&player)
        let first = try entries(database.appDatabase)[0]

        _ = try database.appDatabase.updatePlayer(id: player.id!) { $0.score = 200 }
        _ = try database.appDatabase.updatePlayer(id: player.id!) { $0.name = "Barbara" }

        let entries = try entries(database.appDatabase)
        #expect(entries.count == 1)
        #expect(entries[0].mutationID == first.mutationID)
        #expect(entries[0].name == "Barbara" && entries[0].score == 200)
    }

    @Test(arguments: Storage.allCases)
    func anUpdateThatChangesNothingRecordsNothing(_ storage: Storage) throws {
        let database = try TestDatabase(storage)
        var player = Player(name: "Arthur", score: 100, version: 3)
        try database.appDatabase.savePlayer(&player)
        _ = try database.appDatabase.nextPushBatch()
        let before = try entries(database.appDatabase)

        _ = try database.appDatabase.updatePlayer(id: player.id!) { $0.score = 100 }

        #expect(try entries(database.appDatabase) == before)
    }

    @Test(arguments: Storage.allCases)
    func anEditAfterTheSaveWasSentIsANewEntryAndTheSentOneStaysAsSent(_ storage: Storage) throws {
        let database = try TestDatabase(storage)
        var player = Player(name: "Arthur", score: 100)
        try database.appDatabase.savePlayer(&player)
        let batch = try #require(try database.appDatabase.nextPushBatch())

        _ = try database.appDatabase.updatePlayer(id: player.id!) { $0.score = 200 }

        let entries = try entries(database.appDatabase)
        #expect(entries.count == 2)
        #expect(entries[0].mutationID == batch.changes[0].mutationID && entries[0].score == 100 && entries[0].sentAt != nil)
        #expect(entries[1].score == 200 && entries[1].sentAt == nil)
    }

    @Test(arguments: Storage.allCases)
    func aPlayerDeletedBeforeItsFirstPushIsNeverSent(_ storage: Storage) throws {
        let database = try TestDatabase(storage)
        var player = Player(name: "Arthur", score: 100)
        try database.appDatabase.savePlayer(&player)
        _ = try database.appDatabase.updatePlayer(id: player.id!) { $0.score = 200 }

        try database.appDatabase.deletePlayers(exactly: [player.id!])

        #expect(try entries(database.appDatabase).isEmpty)
        #expect(try database.appDatabase.nextPushBatch() == nil)
    }

    @Test(arguments: Storage.allCases)
    func aPlayerDeletedAfterItsCreationWasSentIsDeletedOnTheServerToo(_ storage: Storage) throws {
        let database = try TestDatabase(storage)
        var player = Player(name: "Arthur", score: 100)
        try database.appDatabase.savePlayer(&player)
        _ = try database.appDatabase.nextPushBatch()

        try database.appDatabase.deletePlayers(exactly: [player.id!])

        let entries = try entries(database.appDatabase)
        #expect(entries.map(\.kind) == [.save, .delete])
    }

    @Test(arguments: Storage.allCases)
    func deletingASyncedPlayerReplacesItsUnsentSavesWithOneDeleteOnItsVersion(_ storage: Storage) throws {
        let database = try TestDatabase(storage)
        let player = try syncedPlayer(database.appDatabase, version: 7)
        _ = try database.appDatabase.updatePlayer(id: player.id!) { $0.score = 300 }

        try database.appDatabase.deleteAllPlayers()

        let entries = try entries(database.appDatabase)
        #expect(entries.count == 1)
        #expect(entries.first?.kind == .delete && entries.first?.baseVersion == 7 && entries.first?.name == nil)
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

        try database.appDatabase.refreshPlayers()

        // Each change of the refresh is one entry: the players it inserted
        // or changed are saves with their values, the one it deleted (synced
        // by clearOutbox) a delete on its version.
        let entries = try entries(database.appDatabase)
        let players = try database.appDatabase.reader.read(Player.fetchAll)
        #expect(!entries.isEmpty)
        for entry in entries {
            if let player = players.first(where: { $0.uuid == entry.playerUUID }) {
                #expect(entry.kind == .save && entry.name == player.name && entry.score == player.score)
            } else {
                #expect(entry.kind == .delete && entry.baseVersion != nil)
            }
        }
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
        #expect(try entries(database.appDatabase).map(\.name) == ["Arthur"])
        #expect(try entries(database.appDatabase).map(\.score) == [1])
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
        #expect(entries.map(\.playerUUID) == [local])
        #expect(entries.first?.name == "Local" && entries.first?.baseVersion == nil)
    }

    @Test func aQueuedPlayerTheServerWouldRefuseStopsThePushWithAFixAndNothingIsMarkedSent() throws {
        let folder = try TemporaryFolder()
        let queue = try databaseFromBeforeTheOutbox(folder) { db in
            try db.execute(sql: "INSERT INTO player (uuid, name, score) VALUES (?, 'Good', 1), (?, ?, 2)",
                           arguments: [UUID().uuidString, UUID().uuidString, "Bad\u{7}"])
        }
        let appDatabase = try AppDatabase(queue)

        #expect {
            try appDatabase.nextPushBatch()
        } throws: { error in
            "\(error)" == "player 2 cannot be pushed: its name contains a control character (U+0007), and it must be \(PlayerValidationError.nameRule); correct it with 'players edit' and sync again (nothing was sent)"
        }
        #expect(try entries(appDatabase).allSatisfy { $0.sentAt == nil })
    }

    // MARK: - Recording the server's answers

    @Test(arguments: Storage.allCases)
    func anAppliedChangeLeavesTheOutboxAndGivesItsVersionToThePlayerAndToLaterChanges(_ storage: Storage) throws {
        let database = try TestDatabase(storage)
        let appDatabase = database.appDatabase
        var player = Player(name: "Arthur", score: 100)
        try appDatabase.savePlayer(&player)
        let batch = try #require(try appDatabase.nextPushBatch())
        _ = try appDatabase.updatePlayer(id: player.id!) { $0.score = 200 }

        let counts = try answer(appDatabase, batch, status: .applied, version: 12)

        #expect(counts == PushCounts(applied: 1))
        #expect(try appDatabase.reader.read(Player.fetchOne)?.version == 12)
        let entries = try entries(appDatabase)
        #expect(entries.count == 1 && entries[0].score == 200 && entries[0].baseVersion == 12)
        // The later change goes in the next batch.
        #expect(try appDatabase.nextPushBatch()?.changes.map(\.baseVersion) == [12])
    }

    @Test(arguments: Storage.allCases)
    func aBatchHoldsOneChangePerPlayerInTheOrderTheyWereMade(_ storage: Storage) throws {
        let database = try TestDatabase(storage)
        let appDatabase = database.appDatabase
        var a = Player(name: "A", score: 1), b = Player(name: "B", score: 2)
        try appDatabase.savePlayer(&a)
        _ = try appDatabase.nextPushBatch()
        _ = try appDatabase.updatePlayer(id: a.id!) { $0.score = 10 }
        try appDatabase.savePlayer(&b)

        let batch = try #require(try appDatabase.nextPushBatch(markingSent: false))

        #expect(batch.changes.map(\.uuid) == [a.uuid, b.uuid])
        #expect(batch.changes.map(\.score) == [1, 2])
    }

    @Test(arguments: Storage.allCases)
    func aConflictKeepsTheLocalValueAndTakesTheServers(_ storage: Storage) throws {
        let database = try TestDatabase(storage)
        let appDatabase = database.appDatabase
        let player = try syncedPlayer(appDatabase, version: 7)
        _ = try appDatabase.updatePlayer(id: player.id!) { $0.score = 300 }
        let batch = try #require(try appDatabase.nextPushBatch())
        let server = PlayersPayload.PlayerEntry(uuid: player.uuid, name: "Arthur", score: 150, version: 9)

        let counts = try answer(appDatabase, batch, status: .conflict, player: server)

        #expect(counts == PushCounts(conflicts: 1))
        let stored = try #require(try appDatabase.reader.read(Player.fetchOne))
        #expect(stored.score == 150 && stored.version == 9)
        let conflicts = try appDatabase.conflicts()
        let conflict = try #require(conflicts.first)
        #expect(conflicts.count == 1)
        #expect(conflict.localName == "Arthur" && conflict.localScore == 300)
        #expect(conflict.serverScore == 150 && conflict.serverVersion == 9)
        #expect(try entries(appDatabase).isEmpty)
    }

    @Test(arguments: Storage.allCases)
    func anEditThatLosesToADeletionLeavesThePlayerDeleted(_ storage: Storage) throws {
        let database = try TestDatabase(storage)
        let appDatabase = database.appDatabase
        let player = try syncedPlayer(appDatabase, version: 7)
        _ = try appDatabase.updatePlayer(id: player.id!) { $0.score = 300 }
        let batch = try #require(try appDatabase.nextPushBatch())

        try answer(appDatabase, batch, status: .conflict, version: 8)

        #expect(try appDatabase.reader.read(Player.fetchCount(_:)) == 0)
        let conflict = try #require(try appDatabase.conflicts().first)
        #expect(conflict.serverIsDeletion && conflict.localScore == 300 && conflict.serverVersion == 8)
    }

    @Test(arguments: Storage.allCases)
    func aDeletionThatLosesToAnEditBringsThePlayerBack(_ storage: Storage) throws {
        let database = try TestDatabase(storage)
        let appDatabase = database.appDatabase
        let player = try syncedPlayer(appDatabase, version: 7)
        try appDatabase.deletePlayers(exactly: [player.id!])
        let batch = try #require(try appDatabase.nextPushBatch())
        let server = PlayersPayload.PlayerEntry(uuid: player.uuid, name: "Arthur", score: 150, version: 9)

        try answer(appDatabase, batch, status: .conflict, player: server)

        let stored = try #require(try appDatabase.reader.read(Player.fetchOne))
        #expect(stored.uuid == player.uuid && stored.score == 150 && stored.version == 9)
        #expect(try appDatabase.conflicts().first?.localIsDeletion == true)
    }

    @Test(arguments: Storage.allCases)
    func aConflictWithTheSameValueIsNotLogged(_ storage: Storage) throws {
        let database = try TestDatabase(storage)
        let appDatabase = database.appDatabase
        let player = try syncedPlayer(appDatabase, version: 7)
        _ = try appDatabase.updatePlayer(id: player.id!) { $0.score = 300 }
        let batch = try #require(try appDatabase.nextPushBatch())
        let server = PlayersPayload.PlayerEntry(uuid: player.uuid, name: "Arthur", score: 300, version: 9)

        let counts = try answer(appDatabase, batch, status: .conflict, player: server)

        #expect(counts == PushCounts(converged: 1))
        #expect(try appDatabase.conflicts().isEmpty)
        #expect(try appDatabase.reader.read(Player.fetchOne)?.version == 9)
    }

    // MARK: - Resolving

    @Test(arguments: Storage.allCases)
    func keepingTheLocalValueMakesItANewChangeOnTheServersVersion(_ storage: Storage) throws {
        let database = try TestDatabase(storage)
        let appDatabase = database.appDatabase
        let uuid = try loseAnEdit(appDatabase)

        #expect(try appDatabase.resolveConflicts(of: uuid, keepLocal: true))

        #expect(try appDatabase.conflicts().isEmpty)
        let stored = try #require(try appDatabase.reader.read(Player.fetchOne))
        #expect(stored.score == 300 && stored.version == 9)
        let entries = try entries(appDatabase)
        #expect(entries.count == 1 && entries[0].score == 300 && entries[0].baseVersion == 9)
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
        #expect(try appDatabase.resolveConflicts(of: uuid, keepLocal: false) == false)
    }

    @Test(arguments: Storage.allCases)
    func keepingALocalValueThatLostToADeletionBringsThePlayerBackOnItsTombstone(_ storage: Storage) throws {
        let database = try TestDatabase(storage)
        let appDatabase = database.appDatabase
        let player = try syncedPlayer(appDatabase, version: 7)
        _ = try appDatabase.updatePlayer(id: player.id!) { $0.score = 300 }
        let batch = try #require(try appDatabase.nextPushBatch())
        try answer(appDatabase, batch, status: .conflict, version: 8)

        try appDatabase.resolveConflicts(of: player.uuid, keepLocal: true)

        let stored = try #require(try appDatabase.reader.read(Player.fetchOne))
        #expect(stored.uuid == player.uuid && stored.score == 300 && stored.version == 8)
        #expect(try appDatabase.nextPushBatch(markingSent: false)?.changes.map(\.baseVersion) == [8])
    }

    // MARK: - Helpers

    /// A player as a sync merged it: with a version, and nothing to push.
    private func syncedPlayer(_ appDatabase: AppDatabase, version: Int64) throws -> Player {
        var player = Player(name: "Arthur", score: 100)
        try appDatabase.savePlayer(&player)
        let batch = try #require(try appDatabase.nextPushBatch())
        try answer(appDatabase, batch, status: .applied, version: version)
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

    /// Records the server's answer to the one change of `batch`.
    @discardableResult
    private func answer(_ appDatabase: AppDatabase, _ batch: PlayersChangeBatch, status: PlayersChangeResults.Result.Status,
                        version: Int64? = nil, player: PlayersPayload.PlayerEntry? = nil) throws -> PushCounts {
        try #require(batch.changes.count == 1)
        let result = PlayersChangeResults.Result(mutationID: batch.changes[0].mutationID, status: status, version: version, player: player)
        return try appDatabase.recordPushResults(PlayersChangeResults(results: [result]), for: batch)
    }

    /// Pushes every entry and records them as applied.
    private func clearOutbox(_ appDatabase: AppDatabase) throws {
        var version: Int64 = 100
        while let batch = try appDatabase.nextPushBatch() {
            let results = batch.changes.map { change -> PlayersChangeResults.Result in
                version += 1
                return .init(mutationID: change.mutationID, status: .applied, version: version)
            }
            _ = try appDatabase.recordPushResults(PlayersChangeResults(results: results), for: batch)
        }
    }

    /// An edit of a synced player (score 300) that lost to the server's
    /// score 150, version 9.
    private func loseAnEdit(_ appDatabase: AppDatabase) throws -> UUID {
        let player = try syncedPlayer(appDatabase, version: 7)
        _ = try appDatabase.updatePlayer(id: player.id!) { $0.score = 300 }
        let batch = try #require(try appDatabase.nextPushBatch())
        let server = PlayersPayload.PlayerEntry(uuid: player.uuid, name: "Arthur", score: 150, version: 9)
        try answer(appDatabase, batch, status: .conflict, player: server)
        return player.uuid
    }
}
