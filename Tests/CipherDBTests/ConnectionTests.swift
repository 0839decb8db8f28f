import CipherDB
import Foundation
import Synchronization
import Testing

/// Collects SQL from any thread.
final class SQLRecorder: Sendable {
    private let statements = Mutex<[String]>([])

    func record(_ sql: String) { statements.withLock { $0.append(sql) } }

    var values: [String] { statements.withLock { $0 } }
}

@Suite struct ConnectionTests {
    /// Starts tracing the SQL of the writer connection.
    func traceWriter(_ writer: any DatabaseWriter) -> SQLRecorder {
        let recorder = SQLRecorder()
        writer.writeWithoutTransaction { db in
            db.trace { event in
                if case .statement(let statement) = event { recorder.record(statement.sql) }
            }
        }
        return recorder
    }

    @Test(arguments: DatabaseKind.allCases)
    func writesOpenImmediateTransactions(_ kind: DatabaseKind) throws {
        let fixture = try DatabaseFixture(kind)
        try fixture.createPlayerTable()
        let sql = traceWriter(fixture.writer)
        try fixture.writer.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('a')") }
        #expect(sql.values == ["BEGIN IMMEDIATE TRANSACTION", "INSERT INTO player (name) VALUES ('a')", "COMMIT TRANSACTION"])
    }

    @Test func queueReadsOpenDeferredReadOnlyTransactions() throws {
        let fixture = try DatabaseFixture(.queue)
        let sql = traceWriter(fixture.writer)
        _ = try fixture.writer.read { db in try Int.fetchOne(db, sql: "SELECT 1") }
        #expect(sql.values == [
            "PRAGMA query_only = 1", "BEGIN DEFERRED TRANSACTION", "SELECT 1", "COMMIT TRANSACTION", "PRAGMA query_only = 0",
        ])
    }

    @Test func inTransactionWithoutKindIsDeferredWhenReadOnly() throws {
        let fixture = try DatabaseFixture(.queue)
        let sql = traceWriter(fixture.writer)
        try fixture.writer.writeWithoutTransaction { db in
            try db.readOnly {
                try db.inTransaction { .commit }
            }
        }
        #expect(sql.values.contains("BEGIN DEFERRED TRANSACTION"))
    }

    @Test(arguments: DatabaseKind.allCases)
    func queueAndPoolRunTransactionsThatCommitOrRollBack(_ kind: DatabaseKind) throws {
        let fixture = try DatabaseFixture(kind)
        try fixture.createPlayerTable()
        func inTransaction(_ updates: (Database) throws -> Database.TransactionCompletion) throws {
            switch fixture.writer {
            case let dbQueue as DatabaseQueue: try dbQueue.inTransaction(nil, updates)
            case let dbPool as DatabasePool: try dbPool.writeInTransaction(nil, updates)
            default: Issue.record("unexpected writer")
            }
        }
        try inTransaction { db in
            try db.execute(sql: "INSERT INTO player (name) VALUES ('kept')")
            return .commit
        }
        try inTransaction { db in
            try db.execute(sql: "INSERT INTO player (name) VALUES ('undone')")
            return .rollback
        }
        let names = try fixture.writer.read { db in try String.fetchAll(db, sql: "SELECT name FROM player") }
        #expect(names == ["kept"])
    }

    @Test(arguments: DatabaseKind.allCases)
    func statementsAfterAnAbortedTransactionThrowAbort(_ kind: DatabaseKind) throws {
        let fixture = try DatabaseFixture(kind)
        try fixture.writer.write { db in try db.execute(sql: "CREATE TABLE t (a UNIQUE)") }
        do {
            try fixture.writer.write { db in
                try db.execute(sql: "INSERT INTO t VALUES (1)")
                // ON CONFLICT ROLLBACK ends the transaction.
                try? db.execute(sql: "INSERT OR ROLLBACK INTO t VALUES (1)")
                try db.execute(sql: "INSERT INTO t VALUES (2)")
            }
            Issue.record("expected an error")
        } catch let error as DatabaseError {
            #expect(error.resultCode == .SQLITE_ABORT)
            #expect(error.message == "Transaction was aborted")
        }
        #expect(try fixture.writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 0)
    }

    @Test(arguments: DatabaseKind.allCases)
    func closingTwiceDoesNothing(_ kind: DatabaseKind) throws {
        let fixture = try DatabaseFixture(kind)
        try fixture.writer.close()
        try fixture.writer.close()
    }

    @Test(arguments: DatabaseKind.allCases)
    func nonThrowingClosuresNeedNoTry(_ kind: DatabaseKind) {
        let fixture = try! DatabaseFixture(kind)
        // writeWithoutTransaction and unsafeReentrantWrite rethrow.
        let one = fixture.writer.writeWithoutTransaction { _ in 1 }
        let two = fixture.writer.unsafeReentrantWrite { _ in 2 }
        #expect(one + two == 3)
    }

    @Test func snapshotsKeepTheStateTheySaw() throws {
        let fixture = try DatabaseFixture(.pool)
        try fixture.createPlayerTable()
        let dbPool = try #require(fixture.writer as? DatabasePool)
        try dbPool.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('a')") }
        let snapshot = try dbPool.makeSnapshot()
        try dbPool.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('b')") }
        #expect(try snapshot.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 1)
        #expect(try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 2)
        #expect(try snapshot.reentrantRead { db in
            try snapshot.reentrantRead { _ in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") }
        } == 1)
    }

    @Test(arguments: DatabaseKind.allCases)
    func typeErasedReadersAndWritersForwardAccesses(_ kind: DatabaseKind) async throws {
        let fixture = try DatabaseFixture(kind)
        try fixture.createPlayerTable()
        let writer = AnyDatabaseWriter(fixture.writer)
        try await writer.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('a')") }
        let reader = AnyDatabaseReader(writer)
        #expect(try reader.unsafeReentrantRead { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 1)
        #expect(try await reader.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 1)
        #expect(reader.path == fixture.path)
    }

    @Test func checkpointCopiesTheWALIntoTheDatabase() throws {
        let fixture = try DatabaseFixture(.pool)
        try fixture.createPlayerTable()
        let result = try fixture.writer.writeWithoutTransaction { db in try db.checkpoint(.truncate) }
        #expect(result.walFrameCount == 0)
        #expect(try fixture.fileBytes(suffix: "-wal").isEmpty)
    }

    @Test func sqliteVersionIsSQLCipher341s() {
        #expect(Database.sqliteLibVersionNumber == 3_015_002)
    }

    @Test func statementArgumentsCanBeSet() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.inDatabase { db in
            let statement = try db.makeStatement(sql: "SELECT ? + ?")
            statement.arguments = [1, 2]
            #expect(try Int.fetchOne(statement) == 3)
            #expect(statement.arguments == [1, 2])
        }
    }

    @Test func releaseMemoryKeepsTheConnectionsUsable() throws {
        let fixture = try DatabaseFixture(.pool)
        try fixture.createPlayerTable()
        let dbPool = try #require(fixture.writer as? DatabasePool)
        dbPool.releaseMemory()
        #expect(try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 0)
    }

    @Test func schemaSourceGivesViewsAPrimaryKeyOutsideOfMigrations() throws {
        struct ViewKeys: DatabaseSchemaSource {
            func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
                view.name == "playerView" ? ["name"] : nil
            }
        }
        var configuration = Configuration()
        configuration.schemaSource = ViewKeys()
        let dbQueue = try DatabaseQueue(configuration: configuration)
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)")
            try db.execute(sql: "CREATE VIEW playerView AS SELECT name FROM player")
            #expect(db.schemaSource == nil)
        }
        try migrator.migrate(dbQueue)
        try dbQueue.read { (db) throws in
            #expect(try db.primaryKey("playerView").columns == ["name"])
            #expect(try db.primaryKey("player").columns == ["id"])
        }
    }
}
