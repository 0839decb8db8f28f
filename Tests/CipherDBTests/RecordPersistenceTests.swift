import CipherDB
import Foundation
import Testing

/// The statements of record persistence, their errors, and tables without
/// an explicit primary key.
@Suite struct RecordPersistenceTests {
    struct Item: Codable, FetchableRecord, PersistableRecord, Equatable {
        var id: Int64
        var name: String
        var score: Int
    }

    /// A record of a table without an explicit primary key: it encodes the
    /// hidden rowid.
    struct Note: FetchableRecord, MutablePersistableRecord, Equatable {
        var rowID: Int64?
        var text: String

        static var databaseSelection: [any SQLSelectable] { [AllColumns(), Column.rowID] }

        init(rowID: Int64? = nil, text: String) {
            self.rowID = rowID
            self.text = text
        }

        init(row: Row) throws {
            rowID = row["rowid"]
            text = row["text"]
        }

        func encode(to container: inout PersistenceContainer) throws {
            container["rowid"] = rowID
            container["text"] = text
        }

        mutating func didInsert(_ inserted: InsertionSuccess) {
            rowID = inserted.rowID
        }
    }

    func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db) throws in
            try db.execute(sql: """
                CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL);
                CREATE TABLE note (text TEXT NOT NULL);
                """)
        }
        return dbQueue
    }

    /// The statements that `body` runs, as traced.
    func tracedStatements(_ dbQueue: DatabaseQueue, _ body: (Database) throws -> Void) throws -> [String] {
        let traced = TraceLog()
        try dbQueue.write { (db) throws in
            db.trace { traced.append($0.description) }
            defer { db.trace(nil) }
            try body(db)
        }
        return traced.lines
    }

    @Test func persistenceStatementsAreSpelledAsGRDBSpellsThem() throws {
        let dbQueue = try makeDatabase()
        let item = Item(id: 1, name: "Arthur", score: 10)
        let statements = try tracedStatements(dbQueue) { db in
            try item.insert(db)
            try item.update(db)
            _ = try item.exists(db)
            try item.delete(db)
            try item.insert(db, onConflict: .replace)
            try item.update(db, onConflict: .ignore)
        }
        // Without the schema queries of the first insert.
        .filter { !$0.hasPrefix("PRAGMA") && !$0.contains("_master") }
        #expect(statements == [
            #"INSERT INTO "item" ("id", "name", "score") VALUES (?,?,?)"#,
            #"UPDATE "item" SET "name"=?, "score"=? WHERE "id"=?"#,
            #"SELECT EXISTS (SELECT 1 FROM "item" WHERE "id"=?)"#,
            #"DELETE FROM "item" WHERE "id"=?"#,
            #"INSERT OR REPLACE INTO "item" ("id", "name", "score") VALUES (?,?,?)"#,
            #"UPDATE OR IGNORE "item" SET "name"=?, "score"=? WHERE "id"=?"#,
        ])
    }

    @Test func updatedColumnsFollowTheOrderOfTheTable() throws {
        struct ReversedItem: Encodable, PersistableRecord {
            static let databaseTableName = "item"
            var score: Int
            var name: String
            var id: Int64
        }
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in try Item(id: 1, name: "Arthur", score: 10).insert(db) }
        let statements = try tracedStatements(dbQueue) { db in
            try ReversedItem(score: 20, name: "Barbara", id: 1).update(db)
        }
        #expect(statements.last == #"UPDATE "item" SET "name"=?, "score"=? WHERE "id"=?"#)
    }

    @Test func theFirstInsertIsTheLastTracedStatement() throws {
        let dbQueue = try makeDatabase()
        let statements = try tracedStatements(dbQueue) { db in
            try Item(id: 1, name: "Arthur", score: 10).insert(db)
        }
        // The schema queries of the first insert run before it.
        #expect(statements.count > 1)
        #expect(statements.last == #"INSERT INTO "item" ("id", "name", "score") VALUES (?,?,?)"#)
    }

    @Test func aFailedUpdateAndAFailedFindThrowTheSameError() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { (db) throws in
            do {
                try Item(id: 42, name: "Ghost", score: 0).update(db)
                Issue.record("expected an error")
            } catch let RecordError.recordNotFound(databaseTableName: table, key: key) {
                #expect(table == "item")
                #expect(key == ["id": 42.databaseValue])
            }
            do {
                _ = try Item.find(db, key: 42)
                Issue.record("expected an error")
            } catch let RecordError.recordNotFound(databaseTableName: table, key: key) {
                #expect(table == "item")
                #expect(key == ["id": 42.databaseValue])
            }
        }
    }

    @Test func recordNotFoundDescribesTheKeyWithItsValues() {
        let error = RecordError.recordNotFound(databaseTableName: "item", key: ["id": 42.databaseValue])
        #expect(error.description == "Key not found in table item: [id:42]")
    }

    @Test func aRecordWithoutPrimaryKeyValueIsNotFound() throws {
        struct Nameless: Encodable, PersistableRecord {
            static let databaseTableName = "item"
            var name: String
        }
        let dbQueue = try makeDatabase()
        try dbQueue.write { (db) throws in
            do {
                try Nameless(name: "Arthur").update(db)
                Issue.record("expected an error")
            } catch let RecordError.recordNotFound(databaseTableName: table, key: key) {
                #expect(table == "item")
                #expect(key == ["id": .null])
            }
            #expect(try !Nameless(name: "Arthur").delete(db))
            #expect(try !Nameless(name: "Arthur").exists(db))
        }
    }

    @Test func recordsOfATableWithoutPrimaryKeyAreUpdatedAndDeletedByRowID() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { (db) throws in
            var note = Note(text: "first")
            try note.insert(db)
            #expect(note.rowID == 1)
            note.text = "changed"
            try note.update(db)
            #expect(try Note.fetchAll(db) == [note])
            #expect(try note.exists(db))
            #expect(try note.delete(db))
            #expect(try Note.fetchCount(db) == 0)
        }
    }

    /// SQLite does not count the rows that INSTEAD OF triggers change in
    /// `sqlite3_changes`: a record of a view is updated and deleted all the
    /// same, as in GRDB.
    @Test func aRecordOfAViewWithInsteadOfTriggersIsUpdatedAndDeleted() throws {
        struct ViewKeys: DatabaseSchemaSource {
            func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
                view.name == "itemView" ? ["id"] : nil
            }
        }
        var configuration = Configuration()
        configuration.schemaSource = ViewKeys()
        let dbQueue = try DatabaseQueue(configuration: configuration)
        try dbQueue.write { (db) throws in
            try db.execute(sql: """
                CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL);
                CREATE VIEW itemView AS SELECT * FROM item;
                CREATE TRIGGER itemView_update INSTEAD OF UPDATE ON itemView BEGIN
                    UPDATE item SET name = NEW.name, score = NEW.score WHERE id = OLD.id;
                END;
                CREATE TRIGGER itemView_delete INSTEAD OF DELETE ON itemView BEGIN
                    DELETE FROM item WHERE id = OLD.id;
                END;
                INSERT INTO item VALUES (1, 'Arthur', 10);
                """)
            struct ItemView: Codable, FetchableRecord, PersistableRecord {
                var id: Int64
                var name: String
                var score: Int
            }
            try ItemView(id: 1, name: "Barbara", score: 20).update(db)
            #expect(try Item.fetchAll(db) == [Item(id: 1, name: "Barbara", score: 20)])
            #expect(throws: RecordError.self) { try ItemView(id: 2, name: "Craig", score: 0).update(db) }
            #expect(try ItemView(id: 1, name: "Barbara", score: 20).delete(db))
            #expect(try Item.fetchCount(db) == 0)
            #expect(try !ItemView(id: 1, name: "Barbara", score: 20).delete(db))
        }
    }

    @Test func theHiddenRowIDIsNotTheRowIDColumnOfAnInsertion() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { (db) throws in
            #expect(try db.primaryKey("note").rowIDColumn == nil)
            #expect(try db.primaryKey("note").isRowID)
            #expect(try db.primaryKey("item").rowIDColumn == "id")
        }
    }
}
