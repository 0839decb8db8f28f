import CipherDB
import Foundation
import Players
import TestSupport
import Testing

/// The seeds' PlayersGRDBTests, on an in-memory and an encrypted database.
@Suite struct AppDatabaseTests {
    @Test(arguments: Storage.allCases)
    func insert(_ storage: Storage) throws {
        let database = try TestDatabase(storage)
        let appDatabase = database.appDatabase

        var insertedPlayer = Player(name: "Arthur", score: 1000)
        try appDatabase.savePlayer(&insertedPlayer)

        #expect(insertedPlayer.id != nil)
        let fetchedPlayer = try appDatabase.reader.read(Player.fetchOne)
        #expect(fetchedPlayer == insertedPlayer)
    }

    @Test(arguments: Storage.allCases)
    func update(_ storage: Storage) throws {
        let database = try TestDatabase(storage)
        let appDatabase = database.appDatabase
        var insertedPlayer = Player(name: "Arthur", score: 1000)
        try appDatabase.savePlayer(&insertedPlayer)

        var updatedPlayer = insertedPlayer
        updatedPlayer.name = "Barbara"
        updatedPlayer.score = 0
        try appDatabase.savePlayer(&updatedPlayer)

        let fetchedPlayer = try appDatabase.reader.read(Player.fetchOne)
        #expect(fetchedPlayer == updatedPlayer)
    }

    @Test(arguments: Storage.allCases)
    func deleteAll(_ storage: Storage) throws {
        let database = try TestDatabase(storage)
        let appDatabase = database.appDatabase
        var player = Player(name: "Arthur", score: 1000)
        try appDatabase.savePlayer(&player)

        try appDatabase.deleteAllPlayers()

        let count = try appDatabase.reader.read(Player.fetchCount(_:))
        #expect(count == 0)
    }

    @Test(arguments: Storage.allCases)
    func deletePlayersByID(_ storage: Storage) throws {
        let database = try TestDatabase(storage)
        let appDatabase = database.appDatabase
        var players = [Player(name: "a", score: 1), Player(name: "b", score: 2), Player(name: "c", score: 3)]
        for index in players.indices { try appDatabase.savePlayer(&players[index]) }

        #expect(try appDatabase.deletePlayers(ids: [players[0].id!, players[2].id!, 999]) == 2)

        #expect(try appDatabase.reader.read(Player.fetchAll) == [players[1]])
    }

    @Test(arguments: Storage.allCases)
    func orderedByName(_ storage: Storage) throws {
        let database = try TestDatabase(storage)
        let appDatabase = database.appDatabase
        for name in ["Barbara", "Arthur", "anita"] {
            var player = Player(name: name, score: 0)
            try appDatabase.savePlayer(&player)
        }
        let names = try appDatabase.reader.read { db in try Player.all().orderedByName().fetchAll(db).map(\.name) }
        #expect(names == ["anita", "Arthur", "Barbara"])
    }

    @Test(arguments: Storage.allCases)
    func orderedByScore(_ storage: Storage) throws {
        let database = try TestDatabase(storage)
        let appDatabase = database.appDatabase
        for (name, score) in [("Arthur", 100), ("barbara", 1000), ("Anita", 1000), ("Craig", 10)] {
            var player = Player(name: name, score: score)
            try appDatabase.savePlayer(&player)
        }
        let names = try appDatabase.reader.read { db in try Player.all().orderedByScore().fetchAll(db).map(\.name) }
        #expect(names == ["Anita", "barbara", "Arthur", "Craig"])
    }

    @Test(arguments: Storage.allCases)
    func refreshPlayersFillsAnEmptyDatabase(_ storage: Storage) throws {
        let database = try TestDatabase(storage)
        let appDatabase = database.appDatabase

        try appDatabase.refreshPlayers()

        let players = try appDatabase.reader.read(Player.fetchAll)
        #expect(players.count == 8)
        #expect(players.allSatisfy { !$0.name.isEmpty && (0...1000).contains($0.score) && $0.score % 10 == 0 })
    }

    @Test(arguments: Storage.allCases)
    func refreshPlayersChangesANonEmptyDatabase(_ storage: Storage) throws {
        let database = try TestDatabase(storage)
        let appDatabase = database.appDatabase
        try appDatabase.createRandomPlayersIfEmpty()
        try appDatabase.createRandomPlayersIfEmpty() // no-op: not empty
        let before = try appDatabase.reader.read(Player.fetchAll)
        #expect(before.count == 8)

        // Random changes: with 8 players, 20 refreshes change something
        // with a probability of 1 - 2^-180.
        for _ in 0..<20 { try appDatabase.refreshPlayers() }

        let after = try appDatabase.reader.read(Player.fetchAll)
        #expect(after != before)
        #expect(after.allSatisfy { !$0.name.isEmpty && (0...1000).contains($0.score) && $0.score % 10 == 0 })
    }

    @Test func encryptedDatabaseFileHasNoPlaintextAndRefusesAWrongPassphrase() throws {
        let temporaryFolder = try TemporaryFolder()
        // A folder that the database creates.
        let folder = temporaryFolder.url("players")
        let url = folder.appendingPathComponent("players.db")
        do {
            let appDatabase = try AppDatabase.open(at: url, passphrase: { "right" })
            var player = Player(name: "Zaphod Beeblebrox", score: 42)
            try appDatabase.savePlayer(&player)
        }
        let attributes = try FileManager.default.attributesOfItem(atPath: folder.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
        for suffix in ["", "-wal"] {
            let bytes = (try? Data(contentsOf: URL(fileURLWithPath: url.path + suffix))) ?? Data()
            #expect(bytes.range(of: Data("Zaphod".utf8)) == nil)
        }
        do {
            _ = try AppDatabase.open(at: url, passphrase: { "wrong" })
            Issue.record("the database opened with a wrong passphrase")
        } catch let error as AppDatabaseError {
            #expect(error == .wrongKey(path: url.path) && error.isKeyMismatch)
            #expect(error.description.contains("passphrase or key is wrong"))
            #expect(!error.description.contains("wrong\""))
        }
        let reopened = try AppDatabase.open(at: url, passphrase: { "right" })
        #expect(try reopened.reader.read(Player.fetchOne)?.name == "Zaphod Beeblebrox")
    }

    @Test func rawKeysOpenTheDatabaseToo() throws {
        let folder = try TemporaryFolder()
        let key = Data((0..<32).map { UInt8($0) })
        let url = folder.url("players.db")
        do {
            let appDatabase = try AppDatabase.open(at: url, key: .rawKey { key })
            try appDatabase.createRandomPlayersIfEmpty()
        }
        let reopened = try AppDatabase.open(at: url, key: .rawKey { key })
        #expect(try reopened.reader.read(Player.fetchCount(_:)) == 8)
        #expect(throws: AppDatabaseError.wrongKey(path: url.path)) { try AppDatabase.open(at: url, passphrase: { "not the key" }) }
    }

    @Test func defaultLocationFollowsXDG() {
        #expect(AppDatabase.defaultDatabaseURL(environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/u"]).path
                == "/data/players/players.db")
        #expect(AppDatabase.defaultDatabaseURL(environment: ["HOME": "/home/u"]).path
                == "/home/u/.local/share/players/players.db")
        // A relative XDG_DATA_HOME is invalid and ignored, as the convention says.
        #expect(AppDatabase.defaultDatabaseURL(environment: ["XDG_DATA_HOME": "data", "HOME": "/home/u"]).path
                == "/home/u/.local/share/players/players.db")
    }
}

@Suite struct MigrationTests {
    @Test func version1DatabasesGetAUUIDPerPlayerAndKeepTheirIDs() throws {
        let dbQueue = try DatabaseQueue(configuration: AppDatabase.makeConfiguration())
        // A database as version 1 of the schema left it, with a deleted last player.
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY);
                INSERT INTO grdb_migrations VALUES ('v1');
                CREATE TABLE player (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, score INTEGER NOT NULL);
                INSERT INTO player (name, score) VALUES ('Arthur', 10), ('Barbara', 20), ('Craig', 30);
                DELETE FROM player WHERE id = 3;
                """)
        }
        let appDatabase = try AppDatabase(dbQueue)
        let players = try appDatabase.reader.read { db in try Player.order(Player.Columns.id).fetchAll(db) }
        #expect(players.map(\.id) == [1, 2])
        #expect(players.map(\.name) == ["Arthur", "Barbara"])
        #expect(Set(players.map(\.uuid)).count == 2)
        // Never synced: no version, and both queued for the next push.
        #expect(try appDatabase.reader.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sync_row") } == 0)
        #expect(try appDatabase.pendingChangeCount() == 2)
        // The deleted id 3 is not reused.
        var player = Player(name: "Dora", score: 40)
        try appDatabase.savePlayer(&player)
        #expect(player.id == 4)
        try dbQueue.read { (db) throws in
            #expect(try db.indexes(on: "player").contains { $0.isUnique && $0.columns == ["uuid"] })
            #expect(try db.columns(in: "player").first { $0.name == "uuid" }?.isNotNull == true)
        }
    }

    @Test func uuidsAreStoredAsUppercaseText() throws {
        let appDatabase = try AppDatabase.empty()
        var player = Player(name: "Arthur", score: 1)
        try appDatabase.savePlayer(&player)
        let stored = try appDatabase.reader.read { db in try String.fetchOne(db, sql: "SELECT uuid FROM player") }
        #expect(stored == player.uuid.uuidString)
    }
}
