import CipherDB
import Foundation
import Synchronization
import Testing

/// Custom SQL aggregates (`DatabaseAggregate`), on encrypted databases:
/// one aggregate per aggregation, errors as GRDB reports them, every
/// aggregate released.
@Suite struct DatabaseAggregateTests {
    /// The sum of its integer arguments, nil for none.
    struct Sum: DatabaseAggregate {
        var sum: Int?

        mutating func step(_ dbValues: [DatabaseValue]) {
            if let int = Int.fromDatabaseValue(dbValues[0]) { sum = (sum ?? 0) + int }
        }

        func finalize() -> (any DatabaseValueConvertible)? { sum }
    }

    /// Its arguments of each row joined by `+`, rows by `,`.
    struct Joined: DatabaseAggregate {
        var rows: [String] = []

        mutating func step(_ dbValues: [DatabaseValue]) {
            rows.append(dbValues.map { $0.isNull ? "NULL" : String(describing: $0) }.joined(separator: "+"))
        }

        func finalize() -> (any DatabaseValueConvertible)? { rows.joined(separator: ",") }
    }

    /// Counts the aggregates alive and made, for the test that uses it.
    final class Counted: DatabaseAggregate {
        static let counts = Mutex((made: 0, alive: 0))
        static let failsInStep = Mutex(false)
        static let failsInFinalize = Mutex(false)

        init() { Self.counts.withLock { $0.made += 1; $0.alive += 1 } }
        deinit { Self.counts.withLock { $0.alive -= 1 } }

        func step(_ dbValues: [DatabaseValue]) throws {
            if Self.failsInStep.withLock({ $0 }) { throw DatabaseError(message: "step failed") }
        }

        func finalize() throws -> (any DatabaseValueConvertible)? {
            if Self.failsInFinalize.withLock({ $0 }) { throw DatabaseError(message: "finalize failed") }
            return 1
        }
    }

    /// `failing(place, error)` fails in `place` (`'step'` or
    /// `'finalize'`) with the error that `error` names.
    struct Failing: DatabaseAggregate {
        var failure: (place: String, error: any Error)?

        static func error(_ name: String) -> any Error {
            switch name {
            case "message and code": DatabaseError(resultCode: ResultCode(rawValue: 123), message: "custom error message")
            case "code": DatabaseError(resultCode: ResultCode(rawValue: 123))
            default: CocoaError(.fileNoSuchFile)
            }
        }

        mutating func step(_ dbValues: [DatabaseValue]) throws {
            let failure = (place: String.fromDatabaseValue(dbValues[0])!, error: Self.error(String.fromDatabaseValue(dbValues[1])!))
            if failure.place == "step" { throw failure.error }
            self.failure = failure
        }

        func finalize() throws -> (any DatabaseValueConvertible)? {
            if let failure { throw failure.error }
            return nil
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func anAggregateSumsEachGroupOnAnEncryptedDatabase(_ kind: DatabaseKind) throws {
        let fixture = try DatabaseFixture(kind)
        try fixture.writer.write { (db) throws in
            try db.execute(sql: "CREATE TABLE score (team TEXT, points INTEGER)")
            try db.execute(sql: "INSERT INTO score VALUES ('a', 1), ('a', 2), ('b', 10), ('b', NULL), ('c', NULL)")
        }
        var configuration = encryptedConfiguration()
        configuration.prepareDatabase { db in
            db.add(function: DatabaseFunction("mySum", argumentCount: 1, pure: true, aggregate: Sum.self))
        }
        let writer = try kind.open(path: fixture.path, configuration: configuration)
        try writer.read { (db) throws in
            let rows = try Row.fetchAll(db, sql: "SELECT team, mySum(points) FROM score GROUP BY team ORDER BY team")
            #expect(rows.map { $0[0] as String } == ["a", "b", "c"])
            #expect(rows.map { $0[1] as Int? } == [3, 10, nil])
            // An aggregation of no row is finalized all the same.
            #expect(try DatabaseValue.fetchOne(db, sql: "SELECT mySum(points) FROM score WHERE 0") == .null)
        }
    }

    @Test func twoCallsInOneSelectAggregateApart() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { (db) throws in
            db.add(function: DatabaseFunction("joined", aggregate: Joined.self))
            let row = try #require(try Row.fetchOne(db, sql: """
                SELECT joined(a), joined(a, b), joined() FROM (SELECT 1 AS a, 'x' AS b UNION ALL SELECT 2, NULL)
                """))
            #expect(row[0] as String == "1,2")
            #expect(row[1] as String == "1+\"x\",2+NULL")
            #expect(row[2] as String == ",")
        }
    }

    @Test func anAggregateOfTheQueryInterfaceIsAnAggregateExpression() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { (db) throws in
            let mySum = DatabaseFunction("mySum", argumentCount: 1, aggregate: Sum.self)
            db.add(function: mySum)
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, team TEXT, score INTEGER)")
            try db.execute(sql: "INSERT INTO player (team, score) VALUES ('a', 1), ('b', 2), ('a', 3)")
            let request = Table("player").select(mySum(Column("score")))
            #expect(try request.makePreparedRequest(db).statement.sql == #"SELECT mySum("score") FROM "player""#)
            #expect(try Int.fetchOne(db, request) == 6)
            let teams = Table("player").select(Column("team")).group(Column("team")).having(mySum(Column("score")) > 2)
            #expect(try String.fetchAll(db, teams) == ["a"])
        }
    }

    @Test(arguments: ["step", "finalize"])
    func anErrorFailsTheStatementAsInGRDB(place: String) throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { (db) throws in
            db.add(function: DatabaseFunction("failing", argumentCount: 2, aggregate: Failing.self))
            func failure(_ error: String) throws -> DatabaseError {
                try #require(throws: DatabaseError.self) { try db.execute(sql: "SELECT failing(?, ?)", arguments: [place, error]) }
            }
            var error = try failure("message and code")
            #expect(error.extendedResultCode.rawValue == 123)
            #expect(error.message == "custom error message")
            // Without a message: SQLite's text for the code.
            error = try failure("code")
            #expect(error.extendedResultCode.rawValue == 123)
            #expect(error.message == "unknown error")
            // Another error: its description.
            error = try failure("other")
            #expect(error.resultCode == .SQLITE_ERROR)
            #expect(error.message == "\(CocoaError(.fileNoSuchFile))")
        }
    }

    @Test func everyAggregateIsReleasedAfterItsAggregation() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { (db) throws in
            db.add(function: DatabaseFunction("counted", argumentCount: 0, aggregate: Counted.self))
            let sql = "SELECT counted() FROM (SELECT 1 AS g UNION ALL SELECT 2) GROUP BY g"
            #expect(try Int.fetchAll(db, sql: sql) == [1, 1])
            #expect(Counted.counts.withLock { $0 } == (2, 0))
            Counted.failsInStep.withLock { $0 = true }
            #expect(throws: DatabaseError.self) { try db.execute(sql: sql) }
            Counted.failsInStep.withLock { $0 = false }
            Counted.failsInFinalize.withLock { $0 = true }
            #expect(throws: DatabaseError.self) { try db.execute(sql: sql) }
            #expect(Counted.counts.withLock { $0.alive } == 0)
        }
    }
}
