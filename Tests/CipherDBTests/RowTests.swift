import CipherDB
import Foundation
import Testing

/// The API of `Row`: a collection of columns, subscripts by column,
/// NULL checks, data without copy.
@Suite struct RowTests {
    @Test func rowIsACollectionOfColumnNamesAndValues() throws {
        let row: Row = ["a": 1, "b": "x", "c": nil]
        #expect(row.map(\.0) == ["a", "b", "c"])
        #expect(row.map(\.1) == [1.databaseValue, "x".databaseValue, .null])
        let index = try #require(row.firstIndex { $0.0 == "b" })
        #expect(row.distance(from: row.startIndex, to: index) == 1)
        #expect(row[index].1 == "x".databaseValue)
        #expect(Array(row.databaseValues) == [1.databaseValue, "x".databaseValue, .null])
    }

    @Test func subscriptsAndDecodingByColumnExpression() throws {
        try DatabaseQueue().read { (db) throws in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT 'Arthur' AS name"))
            #expect(row[Column("NAME")] as String == "Arthur")
            #expect(row[Column("missing")] as String? == nil)
            #expect(try row.decode(String.self, forColumn: Column("name")) == "Arthur")
            #expect(throws: RowDecodingError.self) { try row.decode(String.self, forColumn: Column("missing")) }
        }
    }

    @Test func nullChecksOnCursorAndCopiedRows() throws {
        try DatabaseQueue().read { (db) throws in
            let live = try #require(try Row.fetchCursor(db, sql: "SELECT NULL, 1").next())
            #expect(live.hasNull(atIndex: 0))
            #expect(!live.hasNull(atIndex: 1))
            #expect(live.containsNonNullValue)
            let copied = try #require(try Row.fetchOne(db, sql: "SELECT NULL, NULL"))
            #expect(!copied.containsNonNullValue)
        }
    }

    @Test func withUnsafeDataReadsBlobsAndText() throws {
        try DatabaseQueue().read { (db) throws in
            let sql = "SELECT x'0102' AS blob, 'ab' AS text, NULL AS nothing"
            let live = try #require(try Row.fetchCursor(db, sql: sql).next())
            #expect(try live.withUnsafeData(atIndex: 0) { $0 } == Data([1, 2]))
            #expect(try live.withUnsafeData(named: "text") { $0 } == Data("ab".utf8))
            #expect(try live.withUnsafeData(at: Column("nothing")) { $0 } == nil)
            let copied = try #require(try Row.fetchOne(db, sql: sql))
            #expect(try copied.withUnsafeData(atIndex: 0) { $0 } == Data([1, 2]))
            #expect(try copied.withUnsafeData(named: "missing") { $0 } == nil)
        }
    }

    @Test func rowFromAnyDictionary() throws {
        let row = try #require(Row(["a": 1, "b": NSNull()] as [AnyHashable: Any]))
        #expect(row["a"] as Int == 1)
        #expect(row.hasNull(atIndex: row.columnNames.firstIndex(of: "b")!))
        #expect(Row([1: 1] as [AnyHashable: Any]) == nil)
        #expect(Row(["a": Date.self] as [AnyHashable: Any]) == nil)
    }

    @Test func coalesceReturnsTheFirstNonNullValue() {
        let row: Row = ["nickname": nil, "name": "Arthur"]
        #expect(row.coalesce(["nickname", "name"]) == "Arthur")
        #expect(row.coalesce([Column("missing"), Column("nickname")] as [any ColumnExpression]) as String? == nil)
    }
}
