import CipherDB
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
}
