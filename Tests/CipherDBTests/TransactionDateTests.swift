import CipherDB
import Foundation
import Synchronization
import Testing

/// `Database.transactionDate`: one date per transaction, from the
/// configuration's clock.
@Suite struct TransactionDateTests {
    /// A configuration whose clock gives 1, 2, 3… seconds after 1970, one
    /// more at each reading.
    func countingClockConfiguration() -> Configuration {
        var configuration = encryptedConfiguration()
        let ticks = Atomic(0)
        configuration.transactionClock = .custom { _ in
            Date(timeIntervalSince1970: TimeInterval(ticks.add(1, ordering: .relaxed).newValue))
        }
        return configuration
    }

    @Test(arguments: DatabaseKind.allCases)
    func aTransactionKeepsTheDateItBeganWith(_ kind: DatabaseKind) throws {
        let configuration = countingClockConfiguration()
        let fixture = try DatabaseFixture(kind, configuration: configuration)
        let dates = try fixture.writer.writeWithoutTransaction { db in
            var dates = try [db.transactionDate, db.transactionDate]
            try db.execute(sql: "BEGIN")
            dates += try [db.transactionDate, db.transactionDate]
            try db.execute(sql: "COMMIT")
            dates.append(try db.transactionDate)
            return dates.map(\.timeIntervalSince1970)
        }
        // Outside of a transaction, each call reads the clock. (A pool
        // read it before, when it set its journal mode.)
        #expect(dates.map { $0 - dates[0] } == [0, 1, 2, 2, 3])
    }

    @Test(arguments: DatabaseKind.allCases)
    func eachWriteHasItsOwnDate(_ kind: DatabaseKind) throws {
        let configuration = countingClockConfiguration()
        let fixture = try DatabaseFixture(kind, configuration: configuration)
        try fixture.createPlayerTable()
        let first = try fixture.writer.write { db in try db.transactionDate }
        let second = try fixture.writer.write { db in
            try db.execute(sql: "INSERT INTO player (name) VALUES ('a')")
            return try db.transactionDate
        }
        #expect(first < second)
    }

    @Test(arguments: DatabaseKind.allCases)
    func aTransactionRolledBackBySQLiteForgetsItsDate(_ kind: DatabaseKind) throws {
        let configuration = countingClockConfiguration()
        let fixture = try DatabaseFixture(kind, configuration: configuration)
        try fixture.createPlayerTable()
        let dates = try fixture.writer.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN")
            try db.execute(sql: "INSERT INTO player (name) VALUES ('a')")
            let insideDate = try db.transactionDate
            // OR ROLLBACK ends the transaction without a statement that says so.
            #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT OR ROLLBACK INTO player (name) VALUES ('a')") }
            #expect(!db.isInsideTransaction)
            try db.execute(sql: "BEGIN")
            let nextDate = try db.transactionDate
            try db.execute(sql: "COMMIT")
            return [insideDate, nextDate]
        }
        #expect(dates[0] < dates[1])
    }

    struct ClockFailure: Error {}

    @Test func theClocksErrorIsThrownByTransactionDate() throws {
        var configuration = encryptedConfiguration()
        configuration.transactionClock = .custom { _ in throw ClockFailure() }
        let dbQueue = try DatabaseQueue(configuration: configuration)
        // The transaction itself runs: only the date is missing.
        try dbQueue.write { db in
            #expect(throws: ClockFailure.self) { try db.transactionDate }
            try db.execute(sql: "CREATE TABLE t(a)")
        }
    }
}
