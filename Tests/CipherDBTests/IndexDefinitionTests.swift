import CipherDB
import Foundation
import TestSupport
import Testing

/// `create(index:)`, `create(indexOn:)`, `drop(indexOn:)` and `reindex`,
/// with GRDB's SQL.
@Suite struct IndexDefinitionTests {
    func makeTable(_ db: Database) throws {
        try db.create(table: "test") { t in
            t.primaryKey("id", .integer)
            t.column("a", .text)
            t.column("b", .text)
        }
    }

    @Test func anIndexOnExpressionsHasTheirSQLAndItsCondition() throws {
        try DatabaseQueue().inDatabase { (db) throws in
            try makeTable(db)
            let sql = try TableDefinitionTests.schemaStatements(db) {
                try db.create(index: "test_on_a_plus_b", on: "test", expressions: [Column("a") + Column("b")],
                              options: [.unique, .ifNotExists], condition: Column("a") == "O'Brien")
                try db.create(index: "test_on_a_nocase", on: "test", expressions: [Column("a").collating(.nocase)])
            }
            #expect(sql == [
                #"CREATE UNIQUE INDEX IF NOT EXISTS "test_on_a_plus_b" ON "test"("a" + "b") WHERE "a" = 'O''Brien'"#,
                #"CREATE INDEX "test_on_a_nocase" ON "test"("a" COLLATE NOCASE)"#,
            ])
            // An index on an expression other than a collated column is
            // not listed, as in GRDB.
            #expect(try db.indexes(on: "test").map(\.name) == ["test_on_a_nocase"])
            #expect(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' ORDER BY name")
                    == ["test_on_a_nocase", "test_on_a_plus_b"])
        }
    }

    @Test func anIndexOnColumnsIsNamedAfterTheTableAndColumns() throws {
        try DatabaseQueue().inDatabase { (db) throws in
            try makeTable(db)
            let sql = try TableDefinitionTests.schemaStatements(db) {
                try db.create(indexOn: "test", columns: ["a"])
                try db.create(indexOn: "test", columns: ["a", "b"], options: [.unique], condition: Column("b") != nil)
            }
            #expect(sql == [
                #"CREATE INDEX "index_test_on_a" ON "test"("a")"#,
                #"CREATE UNIQUE INDEX "index_test_on_a_b" ON "test"("a", "b") WHERE "b" IS NOT NULL"#,
            ])
            #expect(try Set(db.indexes(on: "test").map(\.name)) == ["index_test_on_a", "index_test_on_a_b"])
        }
    }

    @Test func dropIndexOnFindsTheIndexOfTheColumnsWhateverItsName() throws {
        try DatabaseQueue().inDatabase { (db) throws in
            try makeTable(db)
            try db.create(index: "custom", on: "test", columns: ["a", "b"])
            try db.create(indexOn: "test", columns: ["b"])
            let sql = try TableDefinitionTests.schemaStatements(db) {
                try db.drop(indexOn: "TEST", columns: ["A", "B"])
                try db.drop(indexOn: "test", columns: ["b"])
                // No index on these columns: nothing to do.
                try db.drop(indexOn: "test", columns: ["b", "a"])
            }
            #expect(sql == [#"DROP INDEX "custom""#, #"DROP INDEX "index_test_on_b""#])
            #expect(try db.indexes(on: "test").isEmpty)
            #expect(throws: DatabaseError.self) { try db.drop(indexOn: "missing", columns: ["a"]) }
        }
    }

    @Test func reindexRebuildsTheIndexesOfACollation() throws {
        try DatabaseQueue().inDatabase { (db) throws in
            try db.create(table: "test") { t in
                t.column("name", .text).collate(.localizedCompare).indexed()
            }
            let sql = try TableDefinitionTests.schemaStatements(db) {
                try db.reindex(collation: .nocase)
                try db.reindex(collation: .localizedCompare)
            }
            #expect(sql == ["REINDEX NOCASE", "REINDEX \(DatabaseCollation.localizedCompare.name)"])
        }
    }
}
