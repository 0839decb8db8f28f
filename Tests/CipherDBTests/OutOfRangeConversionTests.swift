import CipherDB
import Foundation
import Testing

/// Numbers from outside (a file, an option, the network) that used to trap
/// in a conversion: each is now stored, refused or clamped.
@Suite struct OutOfRangeConversionTests {
    @Test(arguments: [1e20, -1e20, 253_402_300_800, -62_167_219_201, Double.greatestFiniteMagnitude])
    func datesBeyondYear9999AreStoredAsTimestampsInsteadOfTrapping(_ seconds: Double) throws {
        let date = Date(timeIntervalSince1970: seconds)
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE event (date DATETIME)")
            try db.execute(sql: "INSERT INTO event (date) VALUES (?)", arguments: [date])
            // A number (the column's NUMERIC affinity makes whole ones integers).
            #expect(try ["real", "integer"].contains(String.fetchOne(db, sql: "SELECT typeof(date) FROM event")))
            #expect(try Date.fetchOne(db, sql: "SELECT date FROM event") == date)
            // Comparisons with such a date run, as they do in SQL.
            _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM event WHERE date < ?", arguments: [date])
        }
    }

    @Test func datesOfYears0000And9999KeepTheirText() throws {
        let dbQueue = try DatabaseQueue()
        let first = Date(timeIntervalSince1970: -62_167_219_200)
        let last = Date(timeIntervalSince1970: 253_402_300_799)
        try dbQueue.read { (db) throws in
            #expect(try String.fetchOne(db, sql: "SELECT ?", arguments: [first]) == "0000-01-01 00:00:00.000")
            #expect(try String.fetchOne(db, sql: "SELECT ?", arguments: [last]) == "9999-12-31 23:59:59.000")
        }
    }

    @Test func aNaNDateIsStoredAsNull() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db) throws in
            #expect(try String.fetchOne(db, sql: "SELECT typeof(?)", arguments: [Date(timeIntervalSince1970: .nan)]) == "null")
        }
    }

    @Test(arguments: [1e20, -1e20])
    func wholeNumberDateStrategiesStoreFarDatesAsReals(_ seconds: Double) throws {
        struct Event: Codable, PersistableRecord {
            var date: Date
            var stamp: Date
            static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
                column == "date" ? .secondsSince1970 : .millisecondsSince1970
            }
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE event (date, stamp)")
            try Event(date: Date(timeIntervalSince1970: seconds), stamp: Date(timeIntervalSince1970: seconds)).insert(db)
            let row = try #require(try Row.fetchOne(db, sql: "SELECT date, stamp FROM event"))
            #expect(row["date"] as Double == seconds)
            #expect(row["stamp"] as Double == seconds * 1000)
        }
    }

    @Test(arguments: [-1e20, -1, Double.nan, 1e20, Double.infinity])
    func anyBusyTimeoutOpensADatabase(_ seconds: Double) throws {
        var configuration = Configuration()
        configuration.busyMode = .timeout(seconds)
        let dbQueue = try DatabaseQueue(configuration: configuration)
        #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT 1") } == 1)
    }
}
