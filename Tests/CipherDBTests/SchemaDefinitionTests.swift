import CipherDB
import Foundation
import TestSupport
import Testing

@Suite struct SchemaDefinitionTests {
    func tableSQL(_ db: Database, _ name: String) throws -> String? {
        try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = ?", arguments: [name])
    }

    @Test func createTableWithEveryColumnConstraint() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db) throws in
            try db.create(table: "team") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull().unique(onConflict: .replace).collate(.nocase)
            }
            try db.create(table: "player", options: [.ifNotExists]) { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull().defaults(to: "O'Brien").collate(.localizedCaseInsensitiveCompare)
                t.column("score", .integer).notNull().defaults(to: 0).check { $0 >= 0 }
                t.column("createdAt", .datetime).defaults(sql: "CURRENT_TIMESTAMP")
                t.belongsTo("team", onDelete: .cascade)
                t.column("email", .text).indexed()
                t.check(sql: "length(name) > 0")
            }
            #expect(try tableSQL(db, "team") == #"CREATE TABLE "team" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "name" TEXT NOT NULL UNIQUE ON CONFLICT REPLACE COLLATE NOCASE)"#)
            #expect(try tableSQL(db, "player") == #"CREATE TABLE "player" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "name" TEXT NOT NULL DEFAULT 'O''Brien' COLLATE swiftLocalizedCaseInsensitiveCompare, "score" INTEGER NOT NULL CHECK ("score" >= 0) DEFAULT 0, "createdAt" DATETIME DEFAULT CURRENT_TIMESTAMP, "teamId" INTEGER REFERENCES "team"("id") ON DELETE CASCADE, "email" TEXT, CHECK (length(name) > 0))"#)
            #expect(try db.indexes(on: "player").map(\.name).sorted() == ["player_on_email", "player_on_teamId"])

            try db.execute(sql: "INSERT INTO team (name) VALUES ('Red')")
            try db.execute(sql: "INSERT INTO player (teamId) VALUES (1)")
            let row = try Row.fetchOne(db, sql: "SELECT name, score, createdAt FROM player")!
            #expect(row["name"] as String == "O'Brien")
            #expect(row["score"] as Int == 0)
            #expect(row["createdAt"] as Date? != nil)
            #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO player (teamId, score) VALUES (1, -1)") }
            #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO player (teamId, name) VALUES (1, '')") }
            // ON DELETE CASCADE
            try db.execute(sql: "DELETE FROM team")
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") == 0)
        }
    }

    @Test func belongsToFollowsTheReferencedPrimaryKey() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db) throws in
            try db.create(table: "countries") { t in t.primaryKey("code", .text) }
            try db.create(table: "hidden") { t in t.column("name", .text) }
            try db.create(table: "pair") { t in
                t.column("a", .text)
                t.column("b", .integer)
                t.primaryKey(["a", "b"])
            }
            try db.create(table: "person") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("country").notNull()            // the plural table
                t.belongsTo("pair").unique()                // a composite key
                t.belongsTo("parent", inTable: "person")    // this very table
                t.belongsTo("person", onDelete: .setNull)   // this table, by its name
            }
            #expect(try tableSQL(db, "person") == """
                CREATE TABLE "person" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, \
                "countryCode" TEXT NOT NULL REFERENCES "countries"("code"), \
                "pairA" TEXT, "pairB" INTEGER, \
                "parentId" INTEGER REFERENCES "person"("id"), \
                "personId" INTEGER REFERENCES "person"("id") ON DELETE SET NULL, \
                FOREIGN KEY ("pairA", "pairB") REFERENCES "pair"("a", "b"))
                """)
            // A hidden rowid is no parent key for SQLite: GRDB writes the
            // reference all the same, and so does CipherDB.
            try db.create(table: "note") { t in t.belongsTo("hidden", indexed: false) }
            #expect(try tableSQL(db, "note") == #"CREATE TABLE "note" ("hiddenId" INTEGER REFERENCES "hidden"("rowid"))"#)
            #expect(try db.indexes(on: "person").map(\.name).sorted()
                    == ["index_person_on_pairA_pairB", "person_on_countryCode", "person_on_parentId", "person_on_personId"])
            #expect(try db.indexes(on: "person").first { $0.name == "index_person_on_pairA_pairB" }?.isUnique == true)
            try db.execute(sql: "INSERT INTO countries VALUES ('FR'); INSERT INTO pair VALUES ('x', 1)")
            try db.execute(sql: "INSERT INTO person (countryCode, pairA, pairB) VALUES ('FR', 'x', 1)")
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO person (countryCode) VALUES ('XX')") // no such country
            }
        }
    }

    @Test func belongsToAMissingTableFailsAndCreatesNothing() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db) throws in
            do {
                try db.create(table: "player") { t in
                    t.autoIncrementedPrimaryKey("id")
                    t.belongsTo("team")
                }
                Issue.record("expected an error")
            } catch let error as DatabaseError {
                #expect(error.message == "no such table: team")
            }
            #expect(try db.tableExists("player") == false)
        }
    }

    @Test func belongsToReferencesThePluralWhenOnlyItExists() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db) throws in
            try db.create(table: "parents") { t in t.autoIncrementedPrimaryKey("id") }
            try db.create(table: "team") { t in t.autoIncrementedPrimaryKey("id") }
            try db.create(table: "teams") { t in t.autoIncrementedPrimaryKey("id") }
            try db.create(table: "child") { t in
                t.belongsTo("parent")
                t.belongsTo("team")
            }
            #expect(try tableSQL(db, "child") == #"CREATE TABLE "child" ("parentId" INTEGER REFERENCES "parents"("id"), "teamId" INTEGER REFERENCES "team"("id"))"#)
            #expect(try db.foreignKeys(on: "child").map(\.destinationTable).sorted() == ["parents", "team"])
        }
    }

    @Test func tableOptionsAndKeys() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db) throws in
            try db.create(table: "pair", options: [.withoutRowID]) { t in
                t.column("a", .text).notNull()
                t.column("b", .text).notNull()
                t.primaryKey(["a", "b"])
                t.uniqueKey(["b", "a"])
            }
            #expect(try db.primaryKey("pair").columns == ["a", "b"])
            try db.create(table: "scratch", options: [.temporary]) { t in
                t.primaryKey("uuid", .text)
                t.column("ref", .text)
                t.foreignKey(["ref"], references: "pair", columns: ["a"])
            }
            #expect(try db.tableExists("scratch"))
            #expect(try String.fetchOne(db, sql: "SELECT name FROM sqlite_temp_master WHERE type = 'table'") == "scratch")
            #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO scratch (uuid) VALUES (NULL)") }
            // IF NOT EXISTS does not fail on an existing table.
            try db.create(table: "pair", options: [.ifNotExists]) { t in t.column("x") }
            #expect(throws: DatabaseError.self) { try db.create(table: "pair") { t in t.column("x") } }
        }
    }

    @Test func alterRenameDropTablesAndIndexes() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db) throws in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
            }
            try db.execute(sql: "INSERT INTO player DEFAULT VALUES")
            try db.alter(table: "player") { t in
                t.add(column: "name", .text).notNull().defaults(to: "anonymous")
                t.add(column: "rank", .integer).indexed()
            }
            #expect(try db.columns(in: "player").map(\.name) == ["id", "name", "rank"])
            #expect(try String.fetchOne(db, sql: "SELECT name FROM player") == "anonymous")
            try db.create(index: "player_on_name", on: "player", columns: ["name"], options: [.unique, .ifNotExists])
            try db.create(index: "player_on_name", on: "player", columns: ["name"], unique: true, ifNotExists: true)
            #expect(try db.indexes(on: "player").first { $0.name == "player_on_name" }?.isUnique == true)
            try db.drop(index: "player_on_name")
            try db.rename(table: "player", to: "gamer")
            #expect(try db.tableExists("gamer"))
            try db.drop(table: "gamer")
            #expect(try !db.tableExists("gamer"))
            try db.drop(table: "gamer", ifExists: true)
        }
    }

    @Test func renamingOrDroppingAColumnThrowsAClearError() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db) throws in
            try db.create(table: "player") { t in t.column("name", .text) }
            do {
                try db.alter(table: "player") { t in t.rename(column: "name", to: "fullName") }
                Issue.record("expected an error")
            } catch let error as DatabaseError {
                #expect(error.message?.contains("has no RENAME COLUMN") == true)
            }
            #expect(throws: DatabaseError.self) {
                try db.alter(table: "player") { t in t.drop(column: "name") }
            }
            #expect(try db.columns(in: "player").map(\.name) == ["name"])
        }
    }

    @Test func schemaCacheFollowsSchemaChangesOfOtherConnections() throws {
        let folder = try TemporaryFolder()
        let pool = try DatabasePool(path: folder.path("db.sqlite"), configuration: encryptedConfiguration())
        struct Thing: Codable, FetchableRecord, PersistableRecord { var code: String }
        try pool.write { db in
            try db.create(table: "thing") { t in t.primaryKey("code", .text) }
            try Thing(code: "a").insert(db)
        }
        #expect(try pool.read { try Thing.exists($0, key: "a") })
        // The primary key changes: the reader's cached key must not be reused.
        try pool.write { db in
            try db.drop(table: "thing")
            try db.create(table: "thing") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("code", .text)
            }
            try Thing(code: "b").insert(db)
        }
        #expect(try pool.read { try Thing.exists($0, key: 1) })
        #expect(try pool.read { try Thing.fetchOne($0, key: 1)?.code } == "b")
    }

    /// A view stores no argument: its request's values are written in its
    /// SQL, quoted as SQL literals.
    @Test func aViewOfARequestHasItsValuesAsLiterals() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { (db) throws in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT, score INTEGER)")
            try db.execute(sql: "INSERT INTO player (name, score) VALUES ('O''Brien', 10), ('Arthur', 2000)")
            try db.create(view: "obrien", as: Table("player").filter(Column("name") == "O'Brien"))
            #expect(try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'obrien'")
                    == #"CREATE VIEW "obrien" AS SELECT * FROM "player" WHERE "name" = 'O''Brien'"#)
            try db.create(view: "champion", options: [.temporary, .ifNotExists], columns: ["who"],
                          asLiteral: "SELECT name FROM player WHERE score > \(1000)")
            #expect(try String.fetchAll(db, sql: "SELECT who FROM champion") == ["Arthur"])
            #expect(try db.viewExists("obrien"))
            try db.drop(view: "obrien")
            #expect(try db.viewExists("obrien") == false)
        }
    }
}
