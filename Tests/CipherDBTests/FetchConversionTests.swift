import CipherDB
import Foundation
import Testing

/// SQLite's conversions where values are read straight from a statement
/// (cursor rows, fetched values, records decoded from cursor rows), and
/// the strict decoding of rows copied out of their statement.
@Suite struct FetchConversionTests {
    struct Cigar: FetchableRecord {
        var count: Int
        init(row: Row) throws {
            count = try row.decode(forColumn: "count")
        }
    }

    // MARK: - Read from the statement: SQLite converts

    @Test func cursorRowReadsNumbersFromTextAsSQLiteDoes() throws {
        try DatabaseQueue().read { (db) throws in
            let cursor = try Row.fetchCursor(db, sql: "SELECT '20 small cigars', '2.5', 42, x'3132', '1'")
            let row = try #require(try cursor.next())
            #expect(row[0] as Int == 20)
            #expect(row[1] as Double == 2.5)
            #expect(row[2] as String == "42")
            #expect(row[3] as String == "12")
            #expect(row[4] as Bool == true)
        }
    }

    @Test func fetchedValuesReadNumbersFromText() throws {
        try DatabaseQueue().read { (db) throws in
            #expect(try Int.fetchOne(db, sql: "SELECT '64000'") == 64000)
            #expect(try Int.fetchAll(db, sql: "SELECT '1' UNION ALL SELECT 2.9") == [1, 2])
            #expect(try Int64.fetchSet(db, sql: "SELECT '7'") == [7])
            #expect(try Double.fetchOne(db, sql: "SELECT '0.5'") == 0.5)
            #expect(try Array(String.fetchCursor(db, sql: "SELECT 1 UNION ALL SELECT 2.5")) == ["1", "2.5"])
        }
    }

    @Test func passphraseDatabaseAnswersKdfIterAsAnInteger() throws {
        let fixture = try DatabaseFixture(.queue)
        try fixture.writer.read { (db) throws in
            #expect(try Int.fetchOne(db, sql: "PRAGMA kdf_iter") == 64000)
        }
    }

    @Test func recordsDecodedFromCursorRowsConvertText() throws {
        try DatabaseQueue().read { (db) throws in
            #expect(try Cigar.fetchAll(db, sql: "SELECT '20 small cigars' AS count").map(\.count) == [20])
            #expect(try Cigar.fetchOne(db, sql: "SELECT '3' AS count")?.count == 3)
        }
    }

    // MARK: - Copied rows: strict

    @Test func copiedRowDecodesNumbersOnlyFromNumbers() throws {
        try DatabaseQueue().read { (db) throws in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT '20 small cigars', 42, x'3132', 3.7"))
            #expect(throws: RowDecodingError.self) { try row.decode(Int.self, atIndex: 0) }
            #expect(throws: RowDecodingError.self) { try row.decode(Double.self, atIndex: 0) }
            #expect(throws: RowDecodingError.self) { try row.decode(String.self, atIndex: 1) }
            #expect(try row.decode(String.self, atIndex: 2) == "12")
            #expect(try row.decode(Int.self, atIndex: 3) == 3)
            #expect(throws: RowDecodingError.self) { try Cigar(row: Row.fetchAll(db, sql: "SELECT 'x' AS count")[0]) }
        }
    }

    @Test func copyOfACursorRowDecodesStrictly() throws {
        try DatabaseQueue().read { (db) throws in
            let row = try #require(try Row.fetchCursor(db, sql: "SELECT '5'").next())
            #expect(try row.decode(Int.self, atIndex: 0) == 5)
            #expect(throws: RowDecodingError.self) { try row.copy().decode(Int.self, atIndex: 0) }
        }
    }

    // MARK: - Checks kept on every path

    @Test func optionalsReadNullAsNil() throws {
        try DatabaseQueue().read { (db) throws in
            #expect(try Int?.fetchAll(db, sql: "SELECT NULL UNION ALL SELECT '3'") == [nil, 3])
            #expect(try Int.fetchOne(db, sql: "SELECT NULL") == nil)
            #expect(try Optional<Int>.fetchOne(db, sql: "SELECT NULL") == .some(nil))
            #expect(try Optional<Int>.fetchOne(db, sql: "SELECT 1 WHERE 0") == nil)
            let live = try #require(try Row.fetchCursor(db, sql: "SELECT NULL").next())
            #expect(live[0] as Int? == nil)
            #expect(live[0] as DatabaseValue == .null)
            let copied = try #require(try Row.fetchOne(db, sql: "SELECT NULL"))
            #expect(copied[0] as Int? == nil)
        }
    }

    @Test func nullIntoANonOptionalThrowsOnEveryPath() throws {
        try DatabaseQueue().read { (db) throws in
            #expect(throws: RowDecodingError.self) { try Int.fetchAll(db, sql: "SELECT NULL") }
            #expect(throws: RowDecodingError.self) { try String.fetchAll(db, sql: "SELECT NULL") }
            #expect(throws: RowDecodingError.self) { try Cigar.fetchAll(db, sql: "SELECT NULL AS count") }
            let live = try #require(try Row.fetchCursor(db, sql: "SELECT NULL").next())
            #expect(throws: RowDecodingError.self) { try live.decode(Double.self, atIndex: 0) }
            let copied = try #require(try Row.fetchOne(db, sql: "SELECT NULL"))
            #expect(throws: RowDecodingError.self) { try copied.decode(Double.self, atIndex: 0) }
        }
    }

    @Test func integerOutOfRangeThrowsOnEveryPath() throws {
        try DatabaseQueue().read { (db) throws in
            #expect(throws: RowDecodingError.self) { try Int8.fetchOne(db, sql: "SELECT 1000") }
            #expect(throws: RowDecodingError.self) { try Int8?.fetchAll(db, sql: "SELECT '1000'") }
            #expect(throws: RowDecodingError.self) { try UInt.fetchAll(db, sql: "SELECT -1") }
            let live = try #require(try Row.fetchCursor(db, sql: "SELECT 1000").next())
            #expect(throws: RowDecodingError.self) { try live.decode(UInt8.self, atIndex: 0) }
            let copied = try #require(try Row.fetchOne(db, sql: "SELECT 1000, 1e300"))
            #expect(throws: RowDecodingError.self) { try copied.decode(UInt8.self, atIndex: 0) }
            #expect(throws: RowDecodingError.self) { try copied.decode(Int64.self, atIndex: 1) }
        }
    }

    @Test func failedConversionOfAConvertibleTypeThrows() throws {
        try DatabaseQueue().read { (db) throws in
            #expect(throws: RowDecodingError.self) { try Date.fetchOne(db, sql: "SELECT 'not a date'") }
            let live = try #require(try Row.fetchCursor(db, sql: "SELECT 'not a date'").next())
            #expect(throws: RowDecodingError.self) { try live.decode(Date.self, atIndex: 0) }
            #expect(throws: RowDecodingError.self) { try URL.fetchOne(db, sql: "SELECT 12") }
        }
    }

    @Test func databaseValueFetchOneKeepsNull() throws {
        try DatabaseQueue().read { (db) throws in
            #expect(try DatabaseValue.fetchOne(db, sql: "SELECT NULL") == .null)
            #expect(try DatabaseValue.fetchOne(db, sql: "SELECT 1 WHERE 0") == nil)
        }
    }
}
