import CipherDB
import Foundation
import Testing

@Suite struct DatabaseValueTests {
    /// Stores a value, then reads it back through every path: the fast
    /// path, DatabaseValue conversion, and row subscripts (live and copied).
    func roundTrip<T: DatabaseValueConvertible & Equatable>(_ value: T, _ kind: DatabaseKind) throws -> [T?] {
        let fixture = try DatabaseFixture(kind)
        return try fixture.writer.write { (db) throws in
            try db.execute(sql: "CREATE TABLE t (value)")
            try db.execute(sql: "INSERT INTO t (value) VALUES (?)", arguments: [value])
            let fetched = try T.fetchOne(db, sql: "SELECT value FROM t")
            let row = try Row.fetchOne(db, sql: "SELECT value FROM t")!
            let converted = T.fromDatabaseValue(row.databaseValues[0])
            let fromRow: T = row["value"]
            let cursor = try Row.fetchCursor(db, sql: "SELECT value FROM t")
            let fromLiveRow: T = try cursor.next()!["VALUE"]
            return [fetched, converted, fromRow, fromLiveRow]
        }
    }

    func expectRoundTrip<T: DatabaseValueConvertible & Equatable>(_ value: T, _ kind: DatabaseKind,
                                                                  sourceLocation: SourceLocation = #_sourceLocation) throws {
        let results = try roundTrip(value, kind)
        #expect(results == Array(repeating: value, count: results.count), sourceLocation: sourceLocation)
    }

    @Test(arguments: DatabaseKind.allCases)
    func integersRoundTrip(_ kind: DatabaseKind) throws {
        try expectRoundTrip(Int.min, kind)
        try expectRoundTrip(Int.max, kind)
        try expectRoundTrip(Int8.min, kind)
        try expectRoundTrip(Int16.max, kind)
        try expectRoundTrip(Int32.min, kind)
        try expectRoundTrip(Int64.max, kind)
        try expectRoundTrip(UInt.min, kind)
        try expectRoundTrip(UInt8.max, kind)
        try expectRoundTrip(UInt16.max, kind)
        try expectRoundTrip(UInt32.max, kind)
        try expectRoundTrip(UInt64(Int64.max), kind)
    }

    @Test(arguments: DatabaseKind.allCases)
    func otherStandardTypesRoundTrip(_ kind: DatabaseKind) throws {
        try expectRoundTrip(true, kind)
        try expectRoundTrip(false, kind)
        try expectRoundTrip(3.25, kind)
        try expectRoundTrip(Float(-1.5), kind)
        try expectRoundTrip("Arthur 🎯 'quoted' \"double\"", kind)
        try expectRoundTrip("", kind)
    }

    @Test(arguments: DatabaseKind.allCases)
    func foundationTypesRoundTrip(_ kind: DatabaseKind) throws {
        try expectRoundTrip(Data([0, 1, 2, 255]), kind)
        try expectRoundTrip(Data(), kind)
        try expectRoundTrip(UUID(), kind)
        try expectRoundTrip(Decimal(string: "12345678901234567890.123456789")!, kind)
        try expectRoundTrip(URL(string: "https://example.com/a?b=c")!, kind)
        // Dates keep millisecond precision (.125: a date made from
        // seconds since 1970 is the nearest date to its text only when its
        // fraction is exact in binary).
        try expectRoundTrip(Date(timeIntervalSince1970: 1_700_000_000.125), kind)
        try expectRoundTrip(Date(timeIntervalSince1970: -86_400 * 365.25 * 100), kind)
    }

    @Test(arguments: DatabaseKind.allCases)
    func optionalsAndEnumsRoundTrip(_ kind: DatabaseKind) throws {
        enum Grade: String, DatabaseValueConvertible { case a, b }
        enum Level: Int, DatabaseValueConvertible { case low = 1, high = 2 }
        try expectRoundTrip(Grade.b, kind)
        try expectRoundTrip(Level.high, kind)
        try expectRoundTrip(Optional("x"), kind)
    }

    @Test func datesUseGRDBTextFormat() throws {
        let dbQueue = try DatabaseQueue()
        let stored = try dbQueue.read { (db) throws in
            try String.fetchOne(db, sql: "SELECT ?", arguments: [Date(timeIntervalSince1970: 1_700_000_000.5)])
        }
        #expect(stored == "2023-11-14 22:13:20.500")
    }

    @Test func datesDecodeFromSQLiteFormatsAndTimestamps() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db) throws in
            #expect(try Date.fetchOne(db, sql: "SELECT '2023-11-14'") == Date(timeIntervalSince1970: 1_699_920_000))
            #expect(try Date.fetchOne(db, sql: "SELECT '2023-11-14T22:13:20Z'") == Date(timeIntervalSince1970: 1_700_000_000))
            #expect(try Date.fetchOne(db, sql: "SELECT '2023-11-14 23:13:20+01:00'") == Date(timeIntervalSince1970: 1_700_000_000))
            #expect(try Date.fetchOne(db, sql: "SELECT 1700000000") == Date(timeIntervalSince1970: 1_700_000_000))
            #expect(try Date.fetchOne(db, sql: "SELECT datetime(1700000000, 'unixepoch')") == Date(timeIntervalSince1970: 1_700_000_000))
            #expect(throws: RowDecodingError.self) { try Date.fetchOne(db, sql: "SELECT 'not a date'") }
        }
    }

    @Test func dateDecimalsAfterTheThirdAreIgnored() throws {
        let dbQueue = try DatabaseQueue()
        let date = try dbQueue.read { (db) throws in
            try Date.fetchOne(db, sql: "SELECT '2015-07-22 01:02:03.00456'")
        }
        #expect(date == Date.fromDatabaseValue("2015-07-22 01:02:03.004".databaseValue))
        #expect(Date.fromDatabaseValue("2015-07-22T01:02:03.9999999Z".databaseValue)
                == Date.fromDatabaseValue("2015-07-22 01:02:03.999".databaseValue))
    }

    @Test func aDecodedDateIsTheDateNearestToItsText() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        let date = try #require(Date.fromDatabaseValue("2015-07-22 01:02:03.004".databaseValue))
        #expect(date == calendar.date(from: DateComponents(year: 2015, month: 7, day: 22, hour: 1, minute: 2,
                                                           second: 3, nanosecond: 4_000_000)))
        #expect(abs(calendar.component(.nanosecond, from: date) - 4_000_000) < 10)
    }

    /// A date decoded from its text encodes back to the same text: the
    /// double of `…:01.425` may lie a few nanoseconds below 425 ms, and a
    /// record fetched and saved again would store `.424`. Every millisecond
    /// of a second, at dates before and after 1970 and 2001.
    @Test func aDateDecodedFromItsTextEncodesBackToIt() throws {
        for day in ["1969-12-31 23:59:59", "2001-01-01 00:00:00", "2026-11-28 20:59:01", "9999-12-31 23:59:59"] {
            for millisecond in 0..<1000 {
                let text = day + "." + String(repeating: "0", count: millisecond < 10 ? 2 : millisecond < 100 ? 1 : 0)
                    + String(millisecond)
                let date = try #require(Date.fromDatabaseValue(text.databaseValue))
                #expect(date.databaseValue == text.databaseValue)
            }
        }
    }

    @Test func aTimeAloneIsNotADate() throws {
        for text in ["01:02", "01:02:03", "01:02:03.00456"] {
            #expect(Date.fromDatabaseValue(text.databaseValue) == nil)
        }
        let dbQueue = try DatabaseQueue()
        #expect(throws: RowDecodingError.self) {
            try dbQueue.read { (db) throws in try Date.fetchOne(db, sql: "SELECT '01:02'") }
        }
    }

    @Test func uuidDecodesFromText() throws {
        let uuid = UUID()
        let dbQueue = try DatabaseQueue()
        let decoded = try dbQueue.read { db in try UUID.fetchOne(db, sql: "SELECT ?", arguments: [uuid.uuidString]) }
        #expect(decoded == uuid)
    }

    @Test func uuidTextDecodesInEitherCaseAndRejectsMalformedText() throws {
        let uuid = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db) throws in
            for text in ["E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "e621e1f8-c36c-495a-93fc-0c247a3e6e5f"] {
                #expect(try UUID.fetchOne(db, sql: "SELECT ?", arguments: [text]) == uuid)
                #expect(UUID.fromDatabaseValue(text.databaseValue) == uuid)
                let row = try Row.fetchOne(db, sql: "SELECT ? AS uuid", arguments: [text])!
                #expect(row["uuid"] as UUID == uuid)
            }
            for text in ["E621E1F8-C36C-495A-93FC-0C247A3E6E5", "E621E1F8_C36C-495A-93FC-0C247A3E6E5F",
                         "G621E1F8-C36C-495A-93FC-0C247A3E6E5F", "E621E1F8-C36C-495A-93FC-0C247A3E6E5F0", ""] {
                #expect(throws: RowDecodingError.self) { try UUID.fetchOne(db, sql: "SELECT ?", arguments: [text]) }
                #expect(UUID.fromDatabaseValue(text.databaseValue) == nil)
            }
        }
    }

    @Test func uuidTextStrategiesWriteWhatUUIDStringWrites() throws {
        struct Lower: Encodable, EncodableRecord {
            var uuid: UUID
            static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy { .lowercaseString }
        }
        struct Upper: Encodable, EncodableRecord {
            var uuid: UUID
            static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy { .uppercaseString }
        }
        for _ in 0..<100 {
            let uuid = UUID()
            #expect(try Lower(uuid: uuid).databaseDictionary["uuid"] == uuid.uuidString.lowercased().databaseValue)
            #expect(try Upper(uuid: uuid).databaseDictionary["uuid"] == uuid.uuidString.databaseValue)
        }
    }

    @Test func nullDecodesAsNilAndFailsForNonOptional() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db) throws in
            #expect(try String.fetchOne(db, sql: "SELECT NULL") == nil)
            #expect(try String?.fetchAll(db, sql: "SELECT NULL UNION ALL SELECT 'a'") == [nil, "a"])
            #expect(throws: RowDecodingError.self) {
                try String.fetchAll(db, sql: "SELECT NULL")
            }
            let row = try Row.fetchOne(db, sql: "SELECT NULL AS name")!
            #expect(throws: RowDecodingError.self) { try row.decode(String.self, forColumn: "name") }
            let name: String? = row["name"]
            #expect(name == nil)
        }
    }

    @Test func decodingErrorsDoNotShowValues() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db) throws in
            do {
                _ = try Row.fetchOne(db, sql: "SELECT ? AS secret", arguments: ["hunter2"])!.decode(Int.self, atIndex: 0)
                Issue.record("expected a decoding error")
            } catch let error as RowDecodingError {
                #expect(error.description.contains("TEXT"))
                #expect(!error.description.contains("hunter2"))
            }
        }
    }

    @Test func integerOverflowIsADecodingError() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db) throws in
            #expect(throws: RowDecodingError.self) { try Int8.fetchAll(db, sql: "SELECT 1000") }
            #expect(try Int8.fetchOne(db, sql: "SELECT 100") == 100)
            #expect(try Int.fetchOne(db, sql: "SELECT 2.0") == 2)
        }
    }

    @Test func rowGivesValuesByIndexAndCaseInsensitiveName() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db) throws in
            let row = try Row.fetchOne(db, sql: "SELECT 1 AS a, 'x' AS B, NULL AS c, 2 AS A")!
            #expect(row.count == 4)
            #expect(row.columnNames == ["a", "B", "c", "A"])
            #expect(row[0] as Int == 1)
            #expect(row["A"] as Int == 1) // leftmost match, case-insensitive
            #expect(row["b"] as String == "x")
            #expect(row["c"] as Int? == nil)
            #expect(row["missing"] as Int? == nil)
            #expect(row.hasColumn("C"))
            #expect(!row.hasColumn("d"))
            #expect(row == ["a": 1, "B": "x", "c": nil, "A": 2])
            #expect(row.description == #"[a:1 B:"x" c:NULL A:2]"#)
        }
    }

    @Test func statementArgumentsFromLiteralsAndAny() throws {
        let positional: StatementArguments = [1, "a", nil]
        #expect(positional.description == #"[1, "a", NULL]"#)
        let named: StatementArguments = ["name": "Arthur", "score": 10]
        #expect(named.description == #"["name": "Arthur", "score": 10]"#)
        #expect(StatementArguments([1, "a"] as [Any]) != nil)
        #expect(StatementArguments([NSObject()] as [Any]) == nil)
    }

    @Test func statementArgumentsFromADictionaryOfAnyValues() throws {
        let arguments = try #require(StatementArguments(["name": "Arthur", "score": NSNull()] as [AnyHashable: Any]))
        #expect(arguments == ["name": "Arthur", "score": nil])
        #expect(StatementArguments(["name": NSObject()] as [AnyHashable: Any]) == nil)
        #expect(StatementArguments([NSNumber(value: 1): "bar"] as [AnyHashable: Any]) == nil)
        let fixture = try DatabaseFixture(.queue)
        let name = try fixture.writer.read { (db) throws in
            try String.fetchOne(db, sql: "SELECT :name", arguments: arguments)
        }
        #expect(name == "Arthur")
    }

    @Test func integersEqualDoublesOfTheSameValueAndHashAlike() {
        #expect(1.databaseValue == 1.0.databaseValue)
        #expect(1.databaseValue != 1.5.databaseValue)
        #expect(Int64.max.databaseValue != Double(Int64.max).databaseValue)
        #expect(1.databaseValue.hashValue == 1.0.databaseValue.hashValue)
        #expect(Set([1.databaseValue, 1.0.databaseValue]).count == 1)
        #expect(1.databaseValue != "1".databaseValue)
    }

    @Test func databaseValuesDescribeThemselvesForDebugging() {
        #expect(DatabaseValue.null.description == "NULL")
        #expect("a\tb\n".databaseValue.description == #""a\tb\n""#)
        #expect(Data([1, 2, 3]).databaseValue.description == "Data(3 bytes)")
    }
}
