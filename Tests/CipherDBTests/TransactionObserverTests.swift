import CipherDB
import Synchronization
import TestSupport
import Testing

/// How transactions that fail, or that an observer refuses, end for
/// transaction observers.
@Suite struct TransactionObserverTests {
    struct Refusal: Error {}

    /// Records what it is told; refuses commits when asked to.
    /// `@unchecked Sendable`: only used on the writer's thread, and read
    /// after the accesses end.
    final class Observer: TransactionObserver, @unchecked Sendable {
        var log: [String] = []
        var refusesCommits = false
        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
        func databaseDidChange(with event: DatabaseEvent) { log.append("\(event.kind) \(event.tableName)") }
        func databaseWillCommit() throws {
            log.append("will commit")
            if refusesCommits { throw Refusal() }
        }
        func databaseDidCommit(_ db: Database) { log.append("commit") }
        func databaseDidRollback(_ db: Database) { log.append("rollback") }
    }

    func makeFixture(_ kind: DatabaseKind) throws -> (DatabaseFixture, Observer) {
        let fixture = try DatabaseFixture(kind)
        try fixture.createPlayerTable()
        let observer = Observer()
        fixture.writer.add(transactionObserver: observer)
        return (fixture, observer)
    }

    @Test(arguments: DatabaseKind.allCases)
    func aFailedStatementOutsideOfTransactionsReportsNoRollback(_ kind: DatabaseKind) throws {
        let (fixture, observer) = try makeFixture(kind)
        try fixture.writer.writeWithoutTransaction { db in
            try db.execute(sql: "INSERT INTO player (name) VALUES ('a')")
            #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO player (name) VALUES ('a')") }
        }
        #expect(observer.log == ["insert player", "will commit", "commit"])
    }

    @Test(arguments: DatabaseKind.allCases)
    func aCommitRefusedByAnObserverThrowsItsErrorAndRollsBack(_ kind: DatabaseKind) throws {
        let (fixture, observer) = try makeFixture(kind)
        observer.refusesCommits = true
        #expect(throws: Refusal.self) {
            try fixture.writer.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('a')") }
        }
        #expect(throws: Refusal.self) {
            try fixture.writer.writeWithoutTransaction { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('b')") }
        }
        #expect(observer.log == ["insert player", "will commit", "rollback", "insert player", "will commit", "rollback"])
        #expect(try fixture.writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") } == 0)
    }

    /// Observes the events of no table: hears only of changes that their
    /// statement did not say it makes (a virtual table's shadow tables).
    final class ObserverOfNothing: TransactionObserver, @unchecked Sendable {
        var log: [String] = []
        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { false }
        func databaseDidChange(with event: DatabaseEvent) { log.append("\(event.kind) \(event.tableName)") }
        func databaseDidCommit(_ db: Database) {}
        func databaseDidRollback(_ db: Database) {}
    }

    @Test func onlyTheChangesAStatementDidNotAdvertiseReachAnObserverOfOtherTables() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)")
            try db.create(virtualTable: "note", using: FTS4()) { t in t.column("text") }
        }
        let observer = ObserverOfNothing()
        dbQueue.add(transactionObserver: observer)
        try dbQueue.write { db in
            // A deletion of every row is one whose truncation is prevented:
            // it is advertised all the same.
            try db.execute(sql: "INSERT INTO player (name) VALUES ('a')")
            try db.execute(sql: "UPDATE player SET name = 'b'")
            try db.execute(sql: "DELETE FROM player")
        }
        #expect(observer.log.isEmpty)
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO note (text) VALUES ('moby')") }
        #expect(observer.log.contains("insert note_content"))
    }

    // MARK: - Savepoints

    @Test(arguments: DatabaseKind.allCases)
    func theChangesOfASavepointAreHeldUntilItIsReleased(_ kind: DatabaseKind) throws {
        let (fixture, observer) = try makeFixture(kind)
        try fixture.writer.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN")
            try db.execute(sql: "INSERT INTO player (name) VALUES ('a')")
            try db.execute(sql: "SAVEPOINT outer")
            try db.execute(sql: "INSERT INTO player (name) VALUES ('b')")
            try db.execute(sql: "SAVEPOINT inner")
            try db.execute(sql: "UPDATE player SET name = 'c' WHERE name = 'b'")
            try db.execute(sql: "RELEASE inner")
            #expect(observer.log == ["insert player"])
            try db.execute(sql: "RELEASE OUTER")
            #expect(observer.log == ["insert player", "insert player", "update player"])
            try db.execute(sql: "COMMIT")
        }
        #expect(observer.log == ["insert player", "insert player", "update player", "will commit", "commit"])
    }

    @Test(arguments: DatabaseKind.allCases)
    func theChangesOfARolledBackSavepointAreNeverReported(_ kind: DatabaseKind) throws {
        let (fixture, observer) = try makeFixture(kind)
        try fixture.writer.write { db in
            try db.execute(sql: "INSERT INTO player (name) VALUES ('kept')")
            try db.inSavepoint {
                try db.execute(sql: "INSERT INTO player (name) VALUES ('undone')")
                return .rollback
            }
            try db.inSavepoint {
                try db.execute(sql: "INSERT INTO player (name) VALUES ('kept too')")
                return .commit
            }
        }
        #expect(observer.log == ["insert player", "insert player", "will commit", "commit"])
        #expect(try fixture.writer.read { db in try String.fetchAll(db, sql: "SELECT name FROM player ORDER BY id") } == ["kept", "kept too"])
    }

    @Test(arguments: DatabaseKind.allCases)
    func aRollbackToASavepointKeepsTheChangesMadeBeforeIt(_ kind: DatabaseKind) throws {
        let (fixture, observer) = try makeFixture(kind)
        try fixture.writer.writeWithoutTransaction { db in
            try db.execute(sql: "SAVEPOINT sp")
            try db.execute(sql: "INSERT INTO player (name) VALUES ('a')")
            try db.execute(sql: "SAVEPOINT sp")
            try db.execute(sql: "INSERT INTO player (name) VALUES ('b')")
            // Twice: the savepoint stays open, emptied.
            try db.execute(sql: "ROLLBACK TO sp")
            try db.execute(sql: "INSERT INTO player (name) VALUES ('c')")
            try db.execute(sql: "ROLLBACK TO sp")
            #expect(observer.log.isEmpty)
            // The outermost savepoint began the transaction: its release commits.
            try db.execute(sql: "RELEASE sp")
            try db.execute(sql: "RELEASE sp")
        }
        #expect(observer.log == ["insert player", "will commit", "commit"])
    }

    @Test(arguments: DatabaseKind.allCases)
    func aTransactionRolledBackInsideASavepointReportsNoChange(_ kind: DatabaseKind) throws {
        let (fixture, observer) = try makeFixture(kind)
        try fixture.writer.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN")
            try db.execute(sql: "SAVEPOINT sp")
            try db.execute(sql: "INSERT INTO player (name) VALUES ('a')")
            try db.execute(sql: "ROLLBACK")
            // The savepoints ended with the transaction: nothing is held.
            try db.execute(sql: "INSERT INTO player (name) VALUES ('b')")
        }
        #expect(observer.log == ["rollback", "insert player", "will commit", "commit"])
    }

    // MARK: - Empty transactions

    @Test(arguments: DatabaseKind.allCases)
    func anEmptyTransactionIsReportedAsCommitted(_ kind: DatabaseKind) throws {
        let (fixture, observer) = try makeFixture(kind)
        try fixture.writer.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN DEFERRED TRANSACTION; COMMIT")
        }
        try fixture.writer.write { _ in }
        try fixture.writer.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN; ROLLBACK")
        }
        #expect(observer.log == ["will commit", "commit", "will commit", "commit", "rollback"])
    }

    @Test(arguments: DatabaseKind.allCases)
    func anEmptyTransactionRefusedByAnObserverThrowsItsError(_ kind: DatabaseKind) throws {
        let (fixture, observer) = try makeFixture(kind)
        observer.refusesCommits = true
        #expect(throws: Refusal.self) { try fixture.writer.write { _ in } }
        #expect(observer.log == ["will commit", "rollback"])
        #expect(fixture.writer.writeWithoutTransaction { db in db.isInsideTransaction } == false)
        // A read is no transaction for observers.
        _ = try fixture.writer.read { db in try Int.fetchOne(db, sql: "SELECT 1") }
        #expect(observer.log == ["will commit", "rollback"])
    }

    @Test(arguments: DatabaseKind.allCases)
    func afterNextTransactionRunsOnceOnCommitOrOnRollback(_ kind: DatabaseKind) throws {
        let fixture = try DatabaseFixture(kind)
        try fixture.createPlayerTable()
        let log = Mutex<[String]>([])
        try fixture.writer.write { db in
            db.afterNextTransaction { _ in log.withLock { $0.append("commit 1") } }
            try db.execute(sql: "INSERT INTO player (name) VALUES ('a')")
        }
        try fixture.writer.write { _ in }
        #expect(throws: Refusal.self) {
            try fixture.writer.write { db in
                db.afterNextTransaction(
                    onCommit: { _ in log.withLock { $0.append("commit 2") } },
                    onRollback: { _ in log.withLock { $0.append("rollback 2") } })
                throw Refusal()
            }
        }
        try fixture.writer.write { _ in }
        #expect(log.withLock { $0 } == ["commit 1", "rollback 2"])
    }
}

/// `Database.notifyChanges(in:)`: which observers hear of it.
@Suite struct NotifyChangesTests {
    /// Counts `databaseDidChange()` for the events of one table.
    final class TableObserver: TransactionObserver, @unchecked Sendable {
        let table: String
        var changeCount = 0
        init(table: String) { self.table = table }
        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { eventKind.tableName == table }
        func databaseDidChange() { changeCount += 1 }
        func databaseDidChange(with event: DatabaseEvent) {}
        func databaseDidCommit(_ db: Database) {}
        func databaseDidRollback(_ db: Database) {}
    }

    @Test func theFullDatabaseIncludesTemporaryAndAttachedTables() throws {
        let folder = try TemporaryFolder()
        let dbQueue = try DatabaseQueue(configuration: encryptedConfiguration())
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: "CREATE TABLE Player (id INTEGER PRIMARY KEY)")
            try db.execute(sql: "CREATE TEMPORARY TABLE scratch (id INTEGER PRIMARY KEY)")
            // An attached database has the key of the connection.
            try db.execute(sql: "ATTACH DATABASE ? AS archive", arguments: [folder.path("archive.sqlite")])
            try db.execute(sql: "CREATE TABLE archive.oldPlayer (id INTEGER PRIMARY KEY)")
        }
        // Observers compare the names the schema writes.
        let observers = ["Player", "scratch", "oldPlayer", "sqlite_master"].map(TableObserver.init)
        for observer in observers { dbQueue.add(transactionObserver: observer) }
        try dbQueue.write { db in try db.notifyChanges(in: .fullDatabase) }
        #expect(observers.map(\.changeCount) == [1, 1, 1, 0])
        try dbQueue.write { db in try db.notifyChanges(in: Table("player")) }
        #expect(observers.map(\.changeCount) == [2, 1, 1, 0])
        // The schema table is in a region that names it.
        try dbQueue.write { db in try db.notifyChanges(in: Table("sqlite_master")) }
        #expect(observers.map(\.changeCount) == [2, 1, 1, 1])
    }

    /// As in GRDB: a table that no schema has changes nothing, and the
    /// temporary schema exists once a temporary object was created.
    @Test func tablesThatNoSchemaHasChangeNothing() throws {
        let dbQueue = try DatabaseQueue(configuration: encryptedConfiguration())
        let observers = ["sqlite_temp_master", "ghost"].map(TableObserver.init)
        for observer in observers { dbQueue.add(transactionObserver: observer) }
        try dbQueue.write { db in
            try db.notifyChanges(in: Table("sqlite_temp_master"))
            try db.notifyChanges(in: DatabaseRegion(table: "ghost", columns: ["id"]))
        }
        #expect(observers.map(\.changeCount) == [0, 0])
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TEMPORARY TABLE scratch (id INTEGER PRIMARY KEY)")
            try db.notifyChanges(in: Table("SQLITE_TEMP_MASTER"))
        }
        #expect(observers.map(\.changeCount) == [1, 0])
    }
}
