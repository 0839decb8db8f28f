import CipherDB
import Foundation
import TestSupport
import Testing

// The seeds' Player record and requests, as the tutorials write them, with
// `import CipherDB` in place of `import GRDB`.

struct Player: Codable, Equatable, Identifiable {
    var id: Int64?
    var name: String
    var score: Int
}

extension Player: FetchableRecord, MutablePersistableRecord {
    enum Columns {
        static let name = Column(CodingKeys.name)
        static let score = Column(CodingKeys.score)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

extension DerivableRequest<Player> {
    func orderedByName() -> Self {
        order(Columns.name.collating(.localizedCaseInsensitiveCompare))
    }

    func orderedByScore() -> Self {
        order(
            Columns.score.desc,
            Columns.name.collating(.localizedCaseInsensitiveCompare))
    }
}

/// The seeds' AppDatabase, reduced to what the record tests use.
final class PlayerDatabase: Sendable {
    let writer: any DatabaseWriter
    var reader: any DatabaseReader { writer }

    init(_ writer: any DatabaseWriter) throws {
        self.writer = writer
        try migrator.migrate(writer)
    }

    private var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.eraseDatabaseOnSchemaChange = true
        migrator.registerMigration("v1") { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull()
            }
        }
        return migrator
    }

    func savePlayer(_ player: inout Player) throws {
        try writer.write { db in
            try player.save(db)
        }
    }

    func deleteAllPlayers() throws {
        try writer.write { db in
            _ = try Player.deleteAll(db)
        }
    }

    static func empty(_ kind: DatabaseKind, folder: TemporaryFolder) throws -> PlayerDatabase {
        try PlayerDatabase(kind.open(path: folder.path("players.sqlite"), configuration: encryptedConfiguration()))
    }
}

@Suite struct PlayerRecordTests {
    @Test(arguments: DatabaseKind.allCases)
    func insertSetsTheID(_ kind: DatabaseKind) throws {
        let folder = try TemporaryFolder()
        let appDatabase = try PlayerDatabase.empty(kind, folder: folder)
        var insertedPlayer = Player(name: "Arthur", score: 1000)
        try appDatabase.savePlayer(&insertedPlayer)
        #expect(insertedPlayer.id != nil)
        let fetchedPlayer = try appDatabase.reader.read(Player.fetchOne)
        #expect(fetchedPlayer == insertedPlayer)
    }

    @Test(arguments: DatabaseKind.allCases)
    func updateChangesTheRow(_ kind: DatabaseKind) throws {
        let folder = try TemporaryFolder()
        let appDatabase = try PlayerDatabase.empty(kind, folder: folder)
        var insertedPlayer = Player(name: "Arthur", score: 1000)
        try appDatabase.savePlayer(&insertedPlayer)
        var updatedPlayer = insertedPlayer
        updatedPlayer.name = "Barbara"
        updatedPlayer.score = 0
        try appDatabase.savePlayer(&updatedPlayer)
        let fetchedPlayer = try appDatabase.reader.read(Player.fetchOne)
        #expect(fetchedPlayer == updatedPlayer)
        #expect(try appDatabase.reader.read(Player.fetchCount(_:)) == 1)
    }

    @Test(arguments: DatabaseKind.allCases)
    func deleteAllRemovesEveryPlayer(_ kind: DatabaseKind) throws {
        let folder = try TemporaryFolder()
        let appDatabase = try PlayerDatabase.empty(kind, folder: folder)
        var player = Player(name: "Arthur", score: 1000)
        try appDatabase.savePlayer(&player)
        try appDatabase.deleteAllPlayers()
        #expect(try appDatabase.reader.read(Player.fetchCount(_:)) == 0)
    }

    @Test(arguments: DatabaseKind.allCases)
    func deleteAllWithKeys(_ kind: DatabaseKind) throws {
        let folder = try TemporaryFolder()
        let appDatabase = try PlayerDatabase.empty(kind, folder: folder)
        let ids = try appDatabase.writer.write { db in
            try ["a", "b", "c"].map { try Player(name: $0, score: 0).inserted(db).id! }
        }
        let deleted = try appDatabase.writer.write { db in try Player.deleteAll(db, keys: [ids[0], ids[2]]) }
        #expect(deleted == 2)
        #expect(try appDatabase.reader.read { try Player.fetchAll($0).map(\.name) } == ["b"])
        #expect(try appDatabase.writer.write { try Player.deleteOne($0, id: ids[1]) })
        #expect(try appDatabase.writer.write { try Player.deleteOne($0, id: ids[1]) } == false)
    }

    @Test(arguments: DatabaseKind.allCases)
    func orderedByNameSortsLikeFinder(_ kind: DatabaseKind) throws {
        let folder = try TemporaryFolder()
        let appDatabase = try PlayerDatabase.empty(kind, folder: folder)
        for name in ["Barbara", "Arthur", "anita"] {
            var player = Player(name: name, score: 0)
            try appDatabase.savePlayer(&player)
        }
        let names = try appDatabase.reader.read { (db) throws in
            try Player.all().orderedByName().fetchAll(db).map(\.name)
        }
        #expect(names == ["anita", "Arthur", "Barbara"])
    }

    @Test(arguments: DatabaseKind.allCases)
    func orderedByScoreSortsByDescendingScoreThenName(_ kind: DatabaseKind) throws {
        let folder = try TemporaryFolder()
        let appDatabase = try PlayerDatabase.empty(kind, folder: folder)
        for (name, score) in [("Barbara", 100), ("arthur", 50), ("Craig", 100), ("anita", 50)] {
            var player = Player(name: name, score: score)
            try appDatabase.savePlayer(&player)
        }
        let players = try appDatabase.reader.read { (db) throws in
            try Player.all().orderedByScore().fetchAll(db).map(\.name)
        }
        #expect(players == ["Barbara", "Craig", "anita", "arthur"])
    }

    @Test func fetchOneOnAnOrderedRequestAddsLimitOne() throws {
        let dbQueue = try DatabaseQueue()
        _ = try PlayerDatabase(dbQueue)
        let traced = TraceLog()
        try dbQueue.read { db in
            db.trace { traced.append($0.description) }
            _ = try Player.all().orderedByScore().fetchOne(db)
        }
        #expect(traced.lines.contains(
            #"SELECT * FROM "player" ORDER BY "score" DESC, "name" COLLATE swiftLocalizedCaseInsensitiveCompare LIMIT 1"#))
    }

    @Test(arguments: DatabaseKind.allCases)
    func updateChangesWritesOnlyChangedColumns(_ kind: DatabaseKind) throws {
        let folder = try TemporaryFolder()
        let appDatabase = try PlayerDatabase.empty(kind, folder: folder)
        var player = Player(name: "Arthur", score: 100)
        try appDatabase.savePlayer(&player)
        let traced = TraceLog()
        let (changed, unchanged) = try appDatabase.writer.write { db in
            db.trace { traced.append($0.description) }
            defer { db.trace(nil) }
            let changed = try player.updateChanges(db) { $0.score = 200 }
            let unchanged = try player.updateChanges(db) { $0.score = 200 }
            return (changed, unchanged)
        }
        #expect(changed)
        #expect(!unchanged)
        let updates = traced.lines.filter { $0.hasPrefix("UPDATE") }
        #expect(updates == [#"UPDATE "player" SET "score"=? WHERE "id"=?"#])
        #expect(try appDatabase.reader.read { try Player.find($0, id: player.id!) }.score == 200)
    }

    @Test(arguments: DatabaseKind.allCases)
    func updateOfAMissingRowThrowsRecordNotFound(_ kind: DatabaseKind) throws {
        let folder = try TemporaryFolder()
        let appDatabase = try PlayerDatabase.empty(kind, folder: folder)
        let ghost = Player(id: 42, name: "Ghost", score: 0)
        #expect(throws: RecordError.self) {
            try appDatabase.writer.write { db in try ghost.update(db) }
        }
        // save inserts it instead.
        try appDatabase.writer.write { db in
            var ghost = ghost
            try ghost.save(db)
        }
        #expect(try appDatabase.reader.read { try Player.fetchOne($0, id: 42) } == ghost)
        #expect(throws: RecordError.self) {
            try appDatabase.reader.read { db in try Player.find(db, key: 7) }
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func fetchByKeysAndExistence(_ kind: DatabaseKind) throws {
        let folder = try TemporaryFolder()
        let appDatabase = try PlayerDatabase.empty(kind, folder: folder)
        let players = try appDatabase.writer.write { db in
            try [("a", 1), ("b", 2), ("c", 3)].map { try Player(name: $0, score: $1).inserted(db) }
        }
        try appDatabase.reader.read { (db) throws in
            #expect(try Player.fetchAll(db, keys: [players[0].id!, players[2].id!]).map(\.name) == ["a", "c"])
            #expect(try Player.fetchAll(db, ids: [Int64]()) == [])
            #expect(try Player.exists(db, key: players[1].id!))
            #expect(try !Player.exists(db, key: 999))
            #expect(try players[1].exists(db))
            #expect(try Player.fetchOne(db, key: ["id": players[1].id!])?.name == "b")
            #expect(throws: DatabaseError.self) { try Player.fetchOne(db, key: ["name": "b"]) } // no unique index
            #expect(try Player.fetchAll(db, sql: "SELECT * FROM player WHERE score > ?", arguments: [1]).count == 2)
            #expect(try Player.filter(Player.Columns.score >= 2).fetchCount(db) == 2)
            #expect(try Player.fetchSet(db).count == 3)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func deleteReturnsWhetherTheRowExisted(_ kind: DatabaseKind) throws {
        let folder = try TemporaryFolder()
        let appDatabase = try PlayerDatabase.empty(kind, folder: folder)
        var player = Player(name: "Arthur", score: 1)
        try appDatabase.savePlayer(&player)
        #expect(try appDatabase.writer.write { try player.delete($0) })
        #expect(try appDatabase.writer.write { try player.delete($0) } == false)
    }
}

extension Player: Hashable {}
