import CipherDB
import Foundation
import Testing

/// The `Record` base class: change tracking.
@Suite struct RecordClassTests {
    final class Player: Record {
        var id: Int64?
        var name: String
        var score: Int

        override class var databaseTableName: String { "player" }

        init(id: Int64? = nil, name: String, score: Int) {
            self.id = id
            self.name = name
            self.score = score
            super.init()
        }

        required init(row: Row) throws {
            id = row["id"]
            name = row["name"]
            score = row["score"]
            try super.init(row: row)
        }

        override func encode(to container: inout PersistenceContainer) throws {
            container["id"] = id
            container["name"] = name
            container["score"] = score
        }

        override func didInsert(_ inserted: InsertionSuccess) {
            super.didInsert(inserted)
            id = inserted.rowID
        }
    }

    func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db) throws in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL)")
        }
        return dbQueue
    }

    @Test func aNewRecordHasChangesInAllItsColumns() throws {
        let player = Player(name: "Arthur", score: 10)
        #expect(player.hasDatabaseChanges)
        let changes = try player.databaseChanges
        #expect(Set(changes.keys) == ["id", "name", "score"])
        #expect(changes.values.allSatisfy { $0 == nil })
    }

    @Test func anInsertedOrFetchedRecordHasNoChanges() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { (db) throws in
            let player = Player(name: "Arthur", score: 10)
            try player.insert(db)
            #expect(player.id == 1)
            #expect(!player.hasDatabaseChanges)
            let fetched = try Player.find(db, key: 1)
            #expect(!fetched.hasDatabaseChanges)
        }
    }

    @Test func aModifiedRecordReportsItsOldValues() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { (db) throws in
            try Player(name: "Arthur", score: 10).insert(db)
            let player = try Player.find(db, key: 1)
            player.score = 20
            #expect(player.hasDatabaseChanges)
            #expect(try player.databaseChanges == ["score": 10.databaseValue])
        }
    }

    @Test func updateChangesWritesOnlyTheChangedColumns() throws {
        let dbQueue = try makeDatabase()
        let traced = TraceLog()
        try dbQueue.write { (db) throws in
            let player = Player(name: "Arthur", score: 10)
            try player.insert(db)
            #expect(try !player.updateChanges(db))
            player.score = 20
            db.trace { traced.append($0.description) }
            defer { db.trace(nil) }
            #expect(try player.updateChanges(db))
            #expect(!player.hasDatabaseChanges)
        }
        // After the schema query of the first update.
        #expect(traced.lines.filter { $0.hasPrefix("UPDATE") } == [#"UPDATE "player" SET "score"=? WHERE "id"=?"#])
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT score FROM player") } == 20)
    }

    @Test func aDeletedRecordIsSavedAgainByAnInsert() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { (db) throws in
            let player = Player(name: "Arthur", score: 10)
            try player.insert(db)
            try player.delete(db)
            #expect(player.hasDatabaseChanges)
            try player.save(db)
            #expect(try Player.fetchCount(db) == 1)
        }
    }
}
