import CipherDB
import Testing

/// Types whose raw value goes to the database: declaring a conformance is
/// enough, and they are what their raw value is in SQL.
@Suite struct RawRepresentableTests {
    enum Grape: String, DatabaseValueConvertible, StatementColumnConvertible {
        case chardonnay, merlot
    }

    struct Wrapper<RawValue>: RawRepresentable {
        var rawValue: RawValue
    }

    @Test func aRawRepresentableEnumIsReadFromTheStatementColumn() throws {
        let dbQueue = try DatabaseQueue(configuration: encryptedConfiguration())
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE wine (grape TEXT)")
            try db.execute(sql: "INSERT INTO wine (grape) VALUES (?), (?), (NULL)", arguments: [Grape.merlot, Grape.chardonnay])
            // StatementColumnConvertible's path and DatabaseValueConvertible's agree.
            #expect(try Grape.fetchAll(db, sql: "SELECT grape FROM wine LIMIT 2") == [.merlot, .chardonnay])
            #expect(try Row.fetchAll(db, sql: "SELECT grape FROM wine LIMIT 2").map { $0[0] as Grape } == [.merlot, .chardonnay])
            #expect(try Grape?.fetchAll(db, sql: "SELECT grape FROM wine") == [.merlot, .chardonnay, nil])
        }
    }

    @Test func aWrapperIsItsRawValueInTheQueryInterface() throws {
        let dbQueue = try DatabaseQueue(configuration: encryptedConfiguration())
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)")
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur'), ('Barbara')")
            let name = Wrapper(rawValue: Column("name"))
            let request = Table("player").select(name).filter(name == Wrapper(rawValue: "Barbara").rawValue).order(name)
            #expect(try request.makePreparedRequest(db).statement.sql == #"SELECT "name" FROM "player" WHERE "name" = ? ORDER BY "name""#)
            #expect(try String.fetchAll(db, request) == ["Barbara"])
        }
    }

    @Test func anOptionalBindsNullWhenEmpty() throws {
        let dbQueue = try DatabaseQueue(configuration: encryptedConfiguration())
        let values: [Int?] = [nil, 1]
        try dbQueue.read { db in
            let statement = try db.makeStatement(sql: "SELECT ? IS NULL")
            var isNull: [Bool] = []
            for value in values {
                #expect(value.bind(to: statement.sqliteStatement, at: 1) == 0) // SQLITE_OK
                // Run with the binding made above.
                isNull.append(try Bool.fetchOne(statement)!)
            }
            #expect(isNull == [true, false])
        }
    }
}

extension RawRepresentableTests.Wrapper: SQLExpressible where RawValue: SQLExpressible {}
extension RawRepresentableTests.Wrapper: SQLSelectable where RawValue: SQLSelectable {}
extension RawRepresentableTests.Wrapper: SQLOrderingTerm where RawValue: SQLOrderingTerm {}
extension RawRepresentableTests.Wrapper: SQLSpecificExpressible where RawValue: SQLSpecificExpressible {}
