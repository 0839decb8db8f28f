import CipherDB
import CSQLCipher
import Testing

/// A rollback must run even when an interruption (the cancellation of the
/// access's task) falls while it runs: a transaction left open stops the
/// program at the end of the access (GRDB's issue 1838).
@Suite struct RollbackInterruptionTests {
    @Test(arguments: DatabaseKind.allCases)
    func aRollbackInterruptedWhileItRunsRunsAgain(_ kind: DatabaseKind) throws {
        let fixture = try DatabaseFixture(kind)
        try fixture.createPlayerTable()
        try fixture.writer.writeWithoutTransaction { (db) throws in
            try db.execute(sql: "INSERT INTO player (name) VALUES ('a'), ('b')")
            try db.beginTransaction()
            try db.execute(sql: "INSERT INTO player (name) VALUES ('c')")
            // While a statement runs, SQLite keeps the connection
            // interrupted: the ROLLBACK meets the interruption.
            let cursor = try Row.fetchCursor(db, sql: "SELECT * FROM player")
            _ = try cursor.next()
            sqlite3_interrupt(db.sqliteConnection)
            try db.rollback()
            #expect(!db.isInsideTransaction)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") == 2)
        }
    }

    @Test(arguments: DatabaseKind.allCases)
    func cancelledTasksThatRollBackLeaveNoTransactionOpen(_ kind: DatabaseKind) async throws {
        let fixture = try DatabaseFixture(kind)
        let writer = fixture.writer
        for _ in 0..<20 {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<20 {
                    let task = Task {
                        try await writer.writeWithoutTransaction { db in
                            try db.beginTransaction()
                            try db.rollback()
                        }
                    }
                    group.addTask {
                        task.cancel()
                        _ = try? await task.value
                    }
                }
                try await group.waitForAll()
            }
        }
        #expect(try await writer.writeWithoutTransaction { db in db.isInsideTransaction } == false)
    }
}
