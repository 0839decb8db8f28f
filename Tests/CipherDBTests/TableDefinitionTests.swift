import CipherDB
import Foundation
import TestSupport
import Testing

/// The SQL of `create(table:)` and `alter(table:)`, character for character
/// as GRDB writes it.
@Suite struct TableDefinitionTests {
    /// The schema statements (`CREATE`, `ALTER`, `DROP`, `REINDEX`) that
    /// `body` runs, leaving out the schema queries around them.
    static func schemaStatements(_ db: Database, _ body: () throws -> Void) rethrows -> [String] {
        let recorder = SQLRecorder()
        db.trace { event in
            if case .statement(let statement) = event { recorder.record(statement.sql) }
        }
        defer { db.trace(nil) }
        try body()
        return recorder.values.filter { sql in
            ["CREATE", "ALTER", "DROP", "REINDEX"].contains { sql.hasPrefix($0) }
        }
    }

    func statements(_ db: Database, _ body: () throws -> Void) rethrows -> [String] {
        try Self.schemaStatements(db, body)
    }

    @Test func primaryKeyBodyMakesItsColumnsNotNullAndTheKey() throws {
        try DatabaseQueue().inDatabase { (db) throws in
            let sql = try statements(db) {
                try db.create(table: "passport") { t in
                    t.column("note")
                    t.primaryKey(onConflict: .fail) {
                        t.column("citizenId", .integer)
                        t.column("countryCode", .text).defaults(to: "FR")
                    }
                }
            }
            #expect(sql == [#"CREATE TABLE "passport" ("note", "citizenId" INTEGER NOT NULL, "countryCode" TEXT NOT NULL DEFAULT 'FR', PRIMARY KEY ("citizenId", "countryCode") ON CONFLICT FAIL)"#])
            #expect(try db.primaryKey("passport").columns == ["citizenId", "countryCode"])
        }
    }

    @Test func belongsToInAPrimaryKeyBodyAddsItsNotNullColumnsToTheKey() throws {
        try DatabaseQueue().inDatabase { (db) throws in
            try db.create(table: "composite") { t in
                t.primaryKey {
                    t.column("a", .text)
                    t.column("b", .text)
                }
            }
            try db.create(table: "simple") { t in t.autoIncrementedPrimaryKey("id") }
            let sql = try statements(db) {
                try db.create(table: "complex") { t in
                    t.primaryKey {
                        t.belongsTo("composite")
                        t.belongsTo("simple")
                    }
                }
            }
            // Not indexed: the primary key is the index.
            #expect(sql == [#"CREATE TABLE "complex" ("compositeA" TEXT NOT NULL, "compositeB" TEXT NOT NULL, "simpleId" INTEGER NOT NULL REFERENCES "simple"("id"), PRIMARY KEY ("compositeA", "compositeB", "simpleId"), FOREIGN KEY ("compositeA", "compositeB") REFERENCES "composite"("a", "b"))"#])
        }
    }

    @Test func aPrimaryKeyMadeOfAForeignKeyToItsOwnTableThrows() throws {
        try DatabaseQueue().inDatabase { (db) throws in
            #expect(throws: DatabaseError.self) {
                try db.create(table: "player") { t in
                    t.primaryKey { t.belongsTo("player") }
                }
            }
            #expect(try db.tableExists("player") == false)
        }
    }

    @Test func aSecondPrimaryKeyThrowsAMisuseError() throws {
        try DatabaseQueue().inDatabase { (db) throws in
            do {
                try db.create(table: "pair") { t in
                    t.column("a")
                    t.primaryKey(["a"])
                    t.primaryKey { t.column("b") }
                }
                Issue.record("expected an error")
            } catch let error as DatabaseError {
                #expect(error.resultCode == .SQLITE_MISUSE)
                #expect(error.message == "table pair cannot have several primary keys")
            }
        }
    }

    @Test func notNullAndUniqueWriteNoConflictClauseForAbort() throws {
        try DatabaseQueue().inDatabase { (db) throws in
            let sql = try statements(db) {
                try db.create(table: "test") { t in
                    t.column("a", .integer).notNull(onConflict: .abort).unique(onConflict: .abort)
                    t.column("b", .integer).notNull(onConflict: .fail).unique(onConflict: .ignore)
                }
            }
            #expect(sql == [#"CREATE TABLE "test" ("a" INTEGER NOT NULL UNIQUE, "b" INTEGER NOT NULL ON CONFLICT FAIL UNIQUE ON CONFLICT IGNORE)"#])
        }
    }

    @Test func aUniqueColumnIsGivenNoOtherIndex() throws {
        try DatabaseQueue().inDatabase { (db) throws in
            let sql = try statements(db) {
                try db.create(table: "test") { t in
                    t.column("a", .integer).unique().indexed()
                    t.column("b", .integer).indexed().unique()
                    t.column("c", .integer).indexed()
                }
            }
            #expect(sql == [
                #"CREATE TABLE "test" ("a" INTEGER UNIQUE, "b" INTEGER UNIQUE, "c" INTEGER)"#,
                #"CREATE INDEX "test_on_c" ON "test"("c")"#,
            ])
        }
    }

    @Test func aReferenceWithoutColumnNamesThePrimaryKeyOrTheRowid() throws {
        try DatabaseQueue().inDatabase { (db) throws in
            try db.create(table: "parent") { t in
                t.primaryKey("name", .text)
                t.column("email", .text).unique()
            }
            try db.create(table: "pkless") { t in t.column("email", .text) }
            let sql = try statements(db) {
                try db.create(table: "child") { t in
                    t.column("parentName", .text).references("parent", onDelete: .cascade)
                    t.column("both", .text).references("parent", column: "name").references("parent", column: "email")
                    t.column("pklessRowId", .integer).references("pkless")
                }
            }
            #expect(sql == [#"CREATE TABLE "child" ("parentName" TEXT REFERENCES "parent"("name") ON DELETE CASCADE, "both" TEXT REFERENCES "parent"("name") REFERENCES "parent"("email"), "pklessRowId" INTEGER REFERENCES "pkless"("rowid"))"#])
            #expect(try db.foreignKeys(on: "child").count == 4)
        }
    }

    @Test func referencesToTheTableBeingCreatedNameItsPrimaryKey() throws {
        try DatabaseQueue().inDatabase { (db) throws in
            let sql = try statements(db) {
                try db.create(table: "node") { t in
                    t.column("parentA", .integer)
                    t.column("parentB", .integer)
                    t.foreignKey(["parentA", "parentB"], references: "node")
                    t.primaryKey {
                        t.column("a", .integer)
                        t.column("b", .integer)
                    }
                }
                try db.create(table: "rowidNode") { t in
                    t.column("parent", .integer).references("rowidNode")
                    t.column("other", .integer)
                    t.foreignKey(["other"], references: "rowidNode")
                }
            }
            #expect(sql == [
                #"CREATE TABLE "node" ("parentA" INTEGER, "parentB" INTEGER, "a" INTEGER NOT NULL, "b" INTEGER NOT NULL, PRIMARY KEY ("a", "b"), FOREIGN KEY ("parentA", "parentB") REFERENCES "node"("a", "b"))"#,
                #"CREATE TABLE "rowidNode" ("parent" INTEGER REFERENCES "rowidNode"("rowid"), "other" INTEGER, FOREIGN KEY ("other") REFERENCES "rowidNode"("rowid"))"#,
            ])
        }
    }

    @Test func belongsToACompositeKeyOfItsOwnTableIndexesItsColumns() throws {
        try DatabaseQueue().inDatabase { (db) throws in
            let sql = try statements(db) {
                try db.create(table: "employees") { t in
                    t.primaryKey {
                        t.column("left")
                        t.column("right")
                    }
                    t.belongsTo("employee")
                }
            }
            #expect(sql == [
                #"CREATE TABLE "employees" ("left" NOT NULL, "right" NOT NULL, "employeeLeft", "employeeRight", PRIMARY KEY ("left", "right"), FOREIGN KEY ("employeeLeft", "employeeRight") REFERENCES "employees"("left", "right"))"#,
                #"CREATE INDEX "index_employees_on_employeeLeft_employeeRight" ON "employees"("employeeLeft", "employeeRight")"#,
            ])
        }
    }

    @Test func literalsWriteTheirValuesAsSQLLiterals() throws {
        try DatabaseQueue().inDatabase { (db) throws in
            let name = "O'Brien"
            let sql = try statements(db) {
                try db.create(table: "test") { t in
                    t.column(sql: "a INTEGER")
                    t.column(literal: "b TEXT DEFAULT \(name)")
                    t.constraint(sql: "CHECK (a >= 0)")
                    t.constraint(literal: "CHECK (b <> \(name.uppercased()))")
                }
            }
            #expect(sql == [#"CREATE TABLE "test" (a INTEGER, b TEXT DEFAULT 'O''Brien', CHECK (a >= 0), CHECK (b <> 'O''BRIEN'))"#])
            try db.execute(sql: "INSERT INTO test (a) VALUES (1)")
            #expect(try String.fetchOne(db, sql: "SELECT b FROM test") == "O'Brien")
        }
    }

    @Test func defaultsAreWrittenWithoutParentheses() throws {
        try DatabaseQueue().inDatabase { (db) throws in
            let sql = try statements(db) {
                try db.create(table: "test") { t in
                    t.column("a", .double).defaults(to: 1.0)
                    t.column("b", .blob).defaults(to: Data("foo".utf8))
                    t.column("c", .datetime).defaults(sql: "CURRENT_TIMESTAMP")
                    t.column("d", .any)
                }
            }
            #expect(sql == [#"CREATE TABLE "test" ("a" DOUBLE DEFAULT 1.0, "b" BLOB DEFAULT X'666F6F', "c" DATETIME DEFAULT CURRENT_TIMESTAMP, "d" ANY)"#])
        }
    }

    @Test func theFormerBooleanOptionsStillCreateTables() throws {
        try DatabaseQueue().inDatabase { (db) throws in
            let sql = try statements(db) {
                try db.create(table: "test", temporary: true, ifNotExists: true, withoutRowID: true) { t in
                    t.primaryKey("id", .integer)
                    t.column("a", .integer).indexed()
                }
            }
            #expect(sql == [
                #"CREATE TEMPORARY TABLE IF NOT EXISTS "test" ("id" INTEGER PRIMARY KEY, "a" INTEGER) WITHOUT ROWID"#,
                #"CREATE INDEX IF NOT EXISTS "test_on_a" ON "test"("a")"#,
            ])
        }
    }

    @Test func aTableCheckOfAnExpressionIsEnforced() throws {
        try DatabaseQueue().inDatabase { (db) throws in
            let sql = try statements(db) {
                try db.create(table: "test") { t in
                    t.column("a", .integer)
                    t.column("b", .integer)
                    t.check(Column("a") + Column("b") < 10)
                }
            }
            #expect(sql == [#"CREATE TABLE "test" ("a" INTEGER, "b" INTEGER, CHECK (("a" + "b") < 10))"#])
            try db.execute(sql: "INSERT INTO test (a, b) VALUES (1, 2)")
            #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO test (a, b) VALUES (5, 5)") }
        }
    }

    @Test func aGeneratedColumnThrowsBecauseSQLite3_15_2HasNone() throws {
        try DatabaseQueue().inDatabase { (db) throws in
            do {
                try db.create(table: "test") { t in
                    t.column("a", .integer)
                    t.column("b", .integer).generatedAs(Column("a") * 2, .stored)
                }
                Issue.record("expected an error")
            } catch let error as DatabaseError {
                #expect(error.message == "generated columns need SQLite 3.31: SQLCipher 3.4.1 is SQLite 3.15.2")
            }
            #expect(try db.tableExists("test") == false)
            try db.create(table: "test") { t in t.column("a", .integer) }
            #expect(throws: DatabaseError.self) {
                try db.alter(table: "test") { t in t.add(column: "b").generatedAs(sql: "a * 2") }
            }
            #expect(try db.columns(in: "test").map(\.name) == ["a"])
        }
    }

    @Test func aStrictTableThrowsBecauseSQLite3_15_2HasNone() throws {
        try DatabaseQueue().inDatabase { (db) throws in
            do {
                try db.create(table: "test", options: [.strict]) { t in t.column("a", .integer) }
                Issue.record("expected an error")
            } catch let error as DatabaseError {
                #expect(error.message == "STRICT tables need SQLite 3.37: SQLCipher 3.4.1 is SQLite 3.15.2")
            }
            #expect(try db.tableExists("test") == false)
        }
    }

    @Test func alterTableAddsColumnsWrittenInSQLAndReferencesToItself() throws {
        try DatabaseQueue().inDatabase { (db) throws in
            try db.create(table: "hidden") { t in t.column("a", .text) }
            try db.create(table: "coded") { t in t.primaryKey("code", .text) }
            let name = "O'Brien"
            let sql = try statements(db) {
                try db.alter(table: "hidden") { t in
                    t.add(column: "ref").references("hidden")
                    t.addColumn(sql: "b TEXT")
                    t.addColumn(literal: "c TEXT DEFAULT \(name)")
                    t.add(column: "d", .integer).indexed()
                }
                try db.alter(table: "coded") { t in
                    t.add(column: "ref").references("coded")
                }
            }
            #expect(sql == [
                #"ALTER TABLE "hidden" ADD COLUMN "ref" REFERENCES "hidden"("rowid")"#,
                #"ALTER TABLE "hidden" ADD COLUMN b TEXT"#,
                #"ALTER TABLE "hidden" ADD COLUMN c TEXT DEFAULT 'O''Brien'"#,
                #"ALTER TABLE "hidden" ADD COLUMN "d" INTEGER"#,
                #"CREATE INDEX "hidden_on_d" ON "hidden"("d")"#,
                #"ALTER TABLE "coded" ADD COLUMN "ref" REFERENCES "coded"("code")"#,
            ])
            #expect(try db.columns(in: "hidden").map(\.name) == ["a", "ref", "b", "c", "d"])
        }
    }
}
