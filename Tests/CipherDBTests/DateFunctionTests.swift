import CipherDB
import Foundation
import Testing

/// `JULIANDAY`, `DATETIME` and their modifiers in the query interface, and
/// dates from Julian days.
@Suite struct DateFunctionTests {
    /// 2013-01-01 00:30:00 UTC, and SQLite's 00:29:59.971 once truncated to
    /// milliseconds.
    static let sampleJulianDay = 2_456_293.520833

    @Test func aDateFromAJulianDayIsSQLitesDate() throws {
        let date = try #require(Date(julianDay: Self.sampleJulianDay))
        #expect(date.timeIntervalSince1970 == 1_357_000_199.971)
        let fixture = try DatabaseFixture(.queue)
        let sqliteText = try fixture.writer.read { (db) throws in
            try String.fetchOne(db, sql: "SELECT strftime('%Y-%m-%d %H:%M:%f', ?)", arguments: [Self.sampleJulianDay])
        }
        #expect(date.databaseValue == sqliteText?.databaseValue)
    }

    @Test func aJulianDayThatIsNotFiniteOrTooLargeIsNoDate() {
        #expect(Date(julianDay: .nan) == nil)
        #expect(Date(julianDay: .infinity) == nil)
        #expect(Date(julianDay: 1e300) == nil)
    }

    @Test func julianDayAppliesModifiersInOrder() throws {
        let date = try #require(Date(julianDay: Self.sampleJulianDay))
        let fixture = try DatabaseFixture(.queue)
        try fixture.writer.read { (db) throws in
            func shift(_ expression: SQLExpression) throws -> TimeInterval? {
                let request: SQLRequest<Double> = "SELECT \(expression)"
                return try request.fetchOne(db).flatMap(Date.init(julianDay:))?.timeIntervalSince(date)
            }
            let value = date.databaseValue
            #expect(try shift(julianDay(value)).map { abs($0) < 0.001 } == true)
            #expect(try shift(julianDay(value, .day(-1))).map { abs($0 + 86_400) < 0.001 } == true)
            #expect(try shift(julianDay(value, .second(1.5))).map { abs($0 - 1.5) < 0.001 } == true)
            #expect(try shift(julianDay(value, .startOfMonth, .month(1), .day(-1))).map { abs($0 - 2_590_200) < 0.1 } == true)
        }
    }

    @Test func dateTimeGivesTheModifiedDateAsText() throws {
        let date = try #require(Date(julianDay: Self.sampleJulianDay))
        let fixture = try DatabaseFixture(.queue)
        try fixture.writer.read { (db) throws in
            func text(_ expression: SQLExpression) throws -> String? {
                let request: SQLRequest<String> = "SELECT \(expression)"
                return try request.fetchOne(db)
            }
            let value = date.databaseValue
            #expect(try text(dateTime(value)) == "2013-01-01 00:29:59")
            #expect(try text(dateTime(value, .hour(-1))) == "2012-12-31 23:29:59")
            #expect(try text(dateTime(value, .year(1), .month(1))) == "2014-02-01 00:29:59")
            #expect(try text(dateTime(value, .startOfYear, .minute(5))) == "2013-01-01 00:05:00")
            #expect(try text(dateTime(value, .startOfDay, .weekday(0))) == "2013-01-06 00:00:00")
            #expect(try text(dateTime(1_357_000_200.databaseValue, .unixEpoch)) == "2013-01-01 00:30:00")
        }
    }

    @Test func modifiersAreArgumentsNotSQLText() throws {
        let fixture = try DatabaseFixture(.queue)
        try fixture.writer.write { (db) throws in
            let request = Table("event").select(dateTime(Column("date"), .day(1), .startOfDay, .utc, .localTime))
            try db.execute(sql: "CREATE TABLE event (date)")
            let statement = try request.makePreparedRequest(db).statement
            #expect(statement.sql == #"SELECT DATETIME("date", ?, ?, ?, ?) FROM "event""#)
            #expect(statement.arguments == ["1 days", "start of day", "utc", "localtime"])
        }
    }
}
