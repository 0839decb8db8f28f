import CipherDB
import Foundation
import TestSupport
import Testing

@Suite struct TransactionTests {
    struct TestError: Error {}

    func playerCount(_ writer: any DatabaseWriter) throws -> Int {
        try writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! }
    }

    @Test(arguments: DatabaseKind.allCases)
    func writeCommits(_ kind: DatabaseKind) throws {
        let fixture = try DatabaseFixture(kind)
        try fixture.createPlayerTable()
        let id = try fixture.writer.write { (db) throws in
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
            #expect(db.isInsideTransaction)
            return db.lastInsertedRowID
        }
        #expect(id == 1)
        #expect(try playerCount(fixture.writer) == 1)
    }

    @Test(arguments: DatabaseKind.allCases)
    func thrownErrorRollsBackTheWrite(_ kind: DatabaseKind) throws {
        let fixture = try DatabaseFixture(kind)
        try fixture.createPlayerTable()
        #expect(throws: TestError.self) {
            try fixture.writer.write { (db) throws in
                try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
                throw TestError()
            }
        }
        #expect(try playerCount(fixture.writer) == 0)
        // The connection is usable afterwards.
        try fixture.writer.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('Barbara')") }
        #expect(try playerCount(fixture.writer) == 1)
    }

    @Test(arguments: DatabaseKind.allCases)
    func asyncWriteRollsBackOnError(_ kind: DatabaseKind) async throws {
        let fixture = try DatabaseFixture(kind)
        try fixture.createPlayerTable()
        await #expect(throws: TestError.self) {
            try await fixture.writer.write { (db) throws in
                try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
                throw TestError()
            }
        }
        let count = try await fixture.writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! }
        #expect(count == 0)
    }

    @Test(arguments: DatabaseKind.allCases)
    func inTransactionCommitsOrRollsBackAsTold(_ kind: DatabaseKind) throws {
        let fixture = try DatabaseFixture(kind)
        try fixture.createPlayerTable()
        try fixture.writer.writeWithoutTransaction { (db) throws in
            try db.inTransaction {
                try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
                return .rollback
            }
            try db.inTransaction(.exclusive) {
                try db.execute(sql: "INSERT INTO player (name) VALUES ('Barbara')")
                return .commit
            }
            #expect(!db.isInsideTransaction)
        }
        #expect(try fixture.writer.read { try String.fetchAll($0, sql: "SELECT name FROM player") } == ["Barbara"])
    }

    @Test(arguments: DatabaseKind.allCases)
    func savepointsNest(_ kind: DatabaseKind) throws {
        let fixture = try DatabaseFixture(kind)
        try fixture.createPlayerTable()
        try fixture.writer.write { (db) throws in
            try db.execute(sql: "INSERT INTO player (name) VALUES ('outer')")
            try db.inSavepoint {
                try db.execute(sql: "INSERT INTO player (name) VALUES ('kept')")
                try db.inSavepoint {
                    try db.execute(sql: "INSERT INTO player (name) VALUES ('undone')")
                    return .rollback
                }
                #expect(throws: TestError.self) {
                    try db.inSavepoint {
                        try db.execute(sql: "INSERT INTO player (name) VALUES ('thrown')")
                        throw TestError()
                    }
                }
                return .commit
            }
            #expect(db.isInsideTransaction)
        }
        let names = try fixture.writer.read { try String.fetchAll($0, sql: "SELECT name FROM player ORDER BY id") }
        #expect(names == ["outer", "kept"])
    }

    @Test(arguments: DatabaseKind.allCases)
    func savepointOutsideTransactionIsATransaction(_ kind: DatabaseKind) throws {
        let fixture = try DatabaseFixture(kind)
        try fixture.createPlayerTable()
        try fixture.writer.writeWithoutTransaction { (db) throws in
            try db.inSavepoint {
                #expect(db.isInsideTransaction)
                try db.execute(sql: "INSERT INTO player (name) VALUES ('a')")
                return .rollback
            }
            #expect(!db.isInsideTransaction)
        }
        #expect(try playerCount(fixture.writer) == 0)
    }

    @Test(arguments: DatabaseKind.allCases)
    func readsCannotWrite(_ kind: DatabaseKind) throws {
        let fixture = try DatabaseFixture(kind)
        try fixture.createPlayerTable()
        do {
            try fixture.writer.read { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('a')") }
            Issue.record("expected an error")
        } catch let error as DatabaseError {
            #expect(error.resultCode == .SQLITE_READONLY)
        }
        // Writes work again after the read.
        try fixture.writer.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('b')") }
        #expect(try playerCount(fixture.writer) == 1)
    }

    @Test func accessLeavingATransactionOpenStopsTheProgram() async throws {
        // The folder of this process: the stopped one cannot delete it.
        let folder = try TemporaryFolder()
        let path = folder.path("db.sqlite")
        // A programmer error, as in GRDB: the next access would run in the
        // forgotten transaction.
        await #expect(processExitsWith: .failure) { [path = path as String] in
            let dbPool = try DatabasePool(path: path, configuration: encryptedConfiguration())
            try dbPool.writeWithoutTransaction { db in
                try db.beginTransaction()
            }
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func allowsUnsafeTransactionsLetsAnAccessLeaveATransactionOpen(_ kind: DatabaseKind) throws {
        var configuration = encryptedConfiguration()
        configuration.allowsUnsafeTransactions = true
        let fixture = try DatabaseFixture(kind, configuration: configuration)
        try fixture.createPlayerTable()
        try fixture.writer.writeWithoutTransaction { db in
            try db.beginTransaction()
            try db.execute(sql: "INSERT INTO player (name) VALUES ('a')")
        }
        try fixture.writer.writeWithoutTransaction { db in
            #expect(db.isInsideTransaction)
            try db.rollback()
        }
        #expect(try playerCount(fixture.writer) == 0)
    }

    @Test(arguments: DatabaseKind.allCases)
    func closedConnectionsThrowMisuse(_ kind: DatabaseKind) throws {
        let fixture = try DatabaseFixture(kind)
        try fixture.writer.close()
        do {
            _ = try fixture.writer.read { db in try Int.fetchOne(db, sql: "SELECT 1") }
            Issue.record("expected an error")
        } catch let error as DatabaseError {
            #expect(error.resultCode == .SQLITE_MISUSE)
        }
        #expect(throws: DatabaseError.self) {
            try fixture.writer.write { db in try db.execute(sql: "SELECT 1") }
        }
    }
}
