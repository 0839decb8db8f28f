import CipherDB
import Foundation
import Testing

@Suite struct DatabaseDateComponentsTests {
    static let components = DateComponents(
        year: 1973, month: 9, day: 18, hour: 10, minute: 11, second: 12, nanosecond: 123_456_789)

    /// What `components` are stored as, in each format.
    static let storedTexts: [(DatabaseDateComponents.Format, String)] = [
        (.YMD, "1973-09-18"),
        (.YMD_HM, "1973-09-18 10:11"),
        (.YMD_HMS, "1973-09-18 10:11:12"),
        (.YMD_HMSS, "1973-09-18 10:11:12.123"),
        (.HM, "10:11"),
        (.HMS, "10:11:12"),
        (.HMSS, "10:11:12.123"),
    ]

    @Test(arguments: storedTexts)
    func eachFormatStoresTheComponentsItNames(_ format: DatabaseDateComponents.Format, _ text: String) throws {
        let fixture = try DatabaseFixture(.queue)
        let stored = try fixture.writer.read { (db) throws in
            try String.fetchOne(db, sql: "SELECT ?", arguments: [DatabaseDateComponents(Self.components, format: format)])
        }
        #expect(stored == text)
    }

    @Test(arguments: storedTexts)
    func storedTextDecodesToItsFormatAndOnlyItsComponents(_ format: DatabaseDateComponents.Format, _ text: String) throws {
        let fixture = try DatabaseFixture(.queue)
        let (fetched, converted) = try fixture.writer.read { (db) throws in
            (try DatabaseDateComponents.fetchOne(db, sql: "SELECT ?", arguments: [text]),
             DatabaseDateComponents.fromDatabaseValue(text.databaseValue))
        }
        let hasDay = format.rawValue.hasPrefix("yyyy")
        let hasTime = format != .YMD
        for parsed in [fetched, converted] {
            let parsed = try #require(parsed)
            #expect(parsed.format == format)
            #expect(parsed.dateComponents.year == (hasDay ? 1973 : nil))
            #expect(parsed.dateComponents.day == (hasDay ? 18 : nil))
            #expect(parsed.dateComponents.minute == (hasTime ? 11 : nil))
            #expect(parsed.dateComponents.second == (format.rawValue.hasSuffix("ss") || format.rawValue.hasSuffix("SSS") ? 12 : nil))
            #expect(parsed.dateComponents.nanosecond == (format.rawValue.hasSuffix("SSS") ? 123_000_000 : nil))
            #expect(parsed.dateComponents.timeZone == nil)
        }
    }

    @Test func missingComponentsAreStoredAsTheFirstDayAndMidnight() {
        let empty = DatabaseDateComponents(DateComponents(), format: .YMD_HMSS)
        #expect(empty.databaseValue == "0000-01-01 00:00:00.000".databaseValue)
    }

    @Test func millisecondsAreRoundedButNeverReachOneThousand() {
        let rounded = DatabaseDateComponents(DateComponents(hour: 1, minute: 2, second: 3, nanosecond: 4_600_000), format: .HMSS)
        #expect(rounded.databaseValue == "01:02:03.005".databaseValue)
        let almostASecond = DatabaseDateComponents(DateComponents(hour: 1, minute: 2, second: 3, nanosecond: 999_900_000), format: .HMSS)
        #expect(almostASecond.databaseValue == "01:02:03.999".databaseValue)
    }

    @Test func aTSeparatorAndOneToManyDecimalsAreAccepted() throws {
        let parsed = try #require(DatabaseDateComponents.fromDatabaseValue("2018-04-21T23:59:59.9".databaseValue))
        #expect(parsed.format == .YMD_HMSS)
        #expect(parsed.dateComponents.nanosecond == 900_000_000)
        let long = try #require(DatabaseDateComponents.fromDatabaseValue("23:59:59.999123".databaseValue))
        #expect(long.dateComponents.nanosecond == 999_000_000)
    }

    @Test func anOffsetBecomesTheTimeZone() throws {
        let utc = try #require(DatabaseDateComponents.fromDatabaseValue("2018-04-21 00:00Z".databaseValue))
        #expect(utc.dateComponents.timeZone == TimeZone(secondsFromGMT: 0))
        let east = try #require(DatabaseDateComponents.fromDatabaseValue("23:59:59.999+01:15".databaseValue))
        #expect(east.dateComponents.timeZone == TimeZone(secondsFromGMT: 4500))
        let west = try #require(DatabaseDateComponents.fromDatabaseValue("00:00-01:15".databaseValue))
        #expect(west.dateComponents.timeZone == TimeZone(secondsFromGMT: -4500))
    }

    @Test func textThatIsNotADateOrATimeDoesNotDecode() throws {
        for text in ["foo", "2018-04-21 ", "2018-04-21X10:00", "10:00:00.", "10:00+01", "1:00", "10:00:00Zoo"] {
            #expect(DatabaseDateComponents.fromDatabaseValue(text.databaseValue) == nil, "\(text)")
        }
        #expect(DatabaseDateComponents.fromDatabaseValue(12.databaseValue) == nil)
        let fixture = try DatabaseFixture(.queue)
        #expect(throws: RowDecodingError.self) {
            try fixture.writer.read { (db) throws in try DatabaseDateComponents.fetchOne(db, sql: "SELECT 'foo'") }
        }
    }

    @Test func formatYMDHMSSortsWithCurrentTimestamp() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0)!
        let earlier = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second],
                                              from: Date().addingTimeInterval(-86_400))
        let fixture = try DatabaseFixture(.queue)
        let isEarlier = try fixture.writer.read { (db) throws in
            try Bool.fetchOne(db, sql: "SELECT ? < CURRENT_TIMESTAMP",
                              arguments: [DatabaseDateComponents(earlier, format: .YMD_HMS)])
        }
        #expect(isEarlier == true)
    }

    @Test func codableAsItsText() throws {
        struct Event: Codable { var day: DatabaseDateComponents }
        let day = DatabaseDateComponents(DateComponents(year: 2018, month: 12, day: 31), format: .YMD)
        let json = try JSONEncoder().encode(Event(day: day))
        #expect(String(decoding: json, as: UTF8.self) == #"{"day":"2018-12-31"}"#)
        let decoded = try JSONDecoder().decode(Event.self, from: json)
        #expect(decoded.day.format == .YMD)
        #expect(decoded.day.dateComponents == DateComponents(year: 2018, month: 12, day: 31))
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Event.self, from: Data(#"{"day":"tomorrow"}"#.utf8))
        }
    }
}
