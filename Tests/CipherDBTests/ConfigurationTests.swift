import CipherDB
import Foundation
import Synchronization
import TestSupport
import Testing

@Suite struct ConfigurationTests {
    @Test(arguments: DatabaseKind.allCases)
    func prepareDatabaseFunctionsRunInOrderOnEveryConnection(_ kind: DatabaseKind) throws {
        let log = TraceLog()
        var configuration = encryptedConfiguration()
        configuration.prepareDatabase { db in log.append("second \(db.description)") }
        configuration.label = "Test"
        let folder = try TemporaryFolder()
        let writer = try kind.open(path: folder.path("db.sqlite"), configuration: configuration)
        _ = try writer.read { db in try Int.fetchOne(db, sql: "SELECT 1") }
        switch kind {
        case .queue:
            #expect(log.lines == ["second Test"])
        case .pool:
            #expect(log.lines == ["second Test.writer", "second Test.reader.1"])
        }
    }

    @Test func doubleQuotedStringsAreLiteralsOnSQLite3_15WhateverTheSetting() throws {
        #expect(Configuration().acceptsDoubleQuotedStringLiterals == false)
        for accepts in [false, true] {
            var configuration = Configuration()
            configuration.acceptsDoubleQuotedStringLiterals = accepts
            let dbQueue = try DatabaseQueue(configuration: configuration)
            let value = try dbQueue.write { (db) throws in
                try db.execute(sql: "CREATE TABLE player (name TEXT); INSERT INTO player DEFAULT VALUES")
                return try String.fetchOne(db, sql: #"SELECT "foo" FROM player"#)
            }
            // SQLite 3.29 is the first that can refuse them (SQLITE_DBCONFIG_DQS_DML).
            #expect(Database.sqliteLibVersionNumber < 3_029_000)
            #expect(value == "foo")
        }
    }

    @Test func prepareDatabaseErrorsFailTheOpening() throws {
        struct Unavailable: Error {}
        var configuration = Configuration()
        configuration.prepareDatabase { _ in throw Unavailable() }
        #expect(throws: Unavailable.self) { try DatabaseQueue(configuration: configuration) }
    }

    @Test(arguments: DatabaseKind.allCases)
    func readonlyConnectionsRefuseWrites(_ kind: DatabaseKind) throws {
        let fixture = try DatabaseFixture(kind)
        try fixture.createPlayerTable()
        try fixture.writer.close()
        var configuration = encryptedConfiguration()
        configuration.readonly = true
        let readonly = try kind.open(path: fixture.path, configuration: configuration)
        do {
            try readonly.writeWithoutTransaction { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('a')") }
            Issue.record("expected an error")
        } catch let error as DatabaseError {
            #expect(error.resultCode == .SQLITE_READONLY)
        }
        #expect(try readonly.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM player") } == 0)
    }

    @Test func foreignKeysCanBeDisabled() throws {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = false
        let dbQueue = try DatabaseQueue(configuration: configuration)
        #expect(try dbQueue.read { try Bool.fetchOne($0, sql: "PRAGMA foreign_keys") } == false)
        #expect(try DatabaseQueue().read { try Bool.fetchOne($0, sql: "PRAGMA foreign_keys") } == true)
    }

    @Test func busyModeImmediateErrorAndTimeout() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("db.sqlite")
        // The holder's commit needs the patient's passing shared lock gone:
        // a patient that is retrying holds one for an instant, so the
        // holder waits too (a hang guard, not a duration under test).
        var holding = encryptedConfiguration()
        holding.busyMode = .timeout(60)
        let holder = try DatabaseQueue(path: path, configuration: holding)
        try holder.write { db in try db.execute(sql: "CREATE TABLE t (x)") }

        // The patient writer's statements are traced: the holder commits
        // once the patient's transaction has begun to take the lock.
        let patientBegins = DispatchSemaphore(value: 0)
        var waiting = encryptedConfiguration()
        waiting.busyMode = .timeout(5)
        waiting.prepareDatabase { db in
            db.trace { event in
                if "\(event)".hasPrefix("BEGIN IMMEDIATE") { patientBegins.signal() }
            }
        }
        let patient = try DatabaseQueue(path: path, configuration: waiting)
        #expect(try patient.read { try Int.fetchOne($0, sql: "PRAGMA busy_timeout") } == 5000)
        let impatient = try DatabaseQueue(path: path, configuration: encryptedConfiguration())

        let locked = DispatchSemaphore(value: 0)
        let group = DispatchGroup()
        let holderFailure = Mutex<String?>(nil)
        DispatchQueue.global().async(group: group) {
            do {
                try holder.write { db in
                    try db.execute(sql: "INSERT INTO t VALUES (1)")
                    locked.signal()
                    patientBegins.wait()
                }
            } catch {
                holderFailure.withLock { $0 = "\(error)" }
            }
        }
        locked.wait()
        do {
            try impatient.write { db in try db.execute(sql: "INSERT INTO t VALUES (2)") }
            Issue.record("expected SQLITE_BUSY")
        } catch let error as DatabaseError {
            #expect(error.resultCode == .SQLITE_BUSY)
        }
        // Waits for the holder to commit, then succeeds.
        try patient.write { db in try db.execute(sql: "INSERT INTO t VALUES (3)") }
        group.wait()
        let failure = holderFailure.withLock { $0 }
        #expect(failure == nil, "the holder failed: \(failure ?? "")")
        #expect(try patient.read { try Int.fetchAll($0, sql: "SELECT x FROM t ORDER BY x") } == [1, 3])
    }

    @Test func walJournalModeForQueues() throws {
        var configuration = encryptedConfiguration()
        configuration.journalMode = .wal
        let folder = try TemporaryFolder()
        let dbQueue = try DatabaseQueue(path: folder.path("db.sqlite"), configuration: configuration)
        #expect(try dbQueue.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") } == "wal")
        let pool = try DatabasePool(path: folder.path("pool.sqlite"), configuration: encryptedConfiguration())
        #expect(try pool.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") } == "wal")
    }
}

@Suite struct InMemoryDatabaseTests {
    @Test func namedInMemoryQueuesShareTheirDatabase() throws {
        let name = "shared-\(UUID().uuidString)"
        let first = try DatabaseQueue(named: name)
        let second = try DatabaseQueue(named: name)
        try first.write { db in try db.execute(sql: "CREATE TABLE t (x); INSERT INTO t VALUES (1)") }
        #expect(try second.read { try Int.fetchOne($0, sql: "SELECT x FROM t") } == 1)
        #expect(!FileManager.default.fileExists(atPath: "file:\(name)?mode=memory&cache=shared"))
    }

    @Test func unnamedInMemoryQueuesAreIndependent() throws {
        let first = try DatabaseQueue()
        let second = try DatabaseQueue()
        try first.write { db in try db.execute(sql: "CREATE TABLE t (x)") }
        #expect(try second.read { try $0.tableExists("t") } == false)
    }
}
