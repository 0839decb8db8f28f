import CipherDB
import Foundation
import Synchronization
import TestSupport
import Testing

/// `spawnConcurrentRead` and `asyncConcurrentRead`: a read that starts in
/// a write access sees what the writer committed last, and none of the
/// writes that follow; and the reads of a pool that start their snapshot
/// when they begin.
@Suite struct ConcurrentReadTests {
    /// The count of players that a concurrent read, spawned after a
    /// deletion, fetches once the writer has inserted a player and
    /// committed: the read must wait for the commit before it counts, so
    /// that it sees the insertion unless its snapshot began before.
    func countSeenByAConcurrentRead(_ writer: any DatabaseWriter) throws -> Int? {
        try writer.write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)")
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
        }
        let writerDone = DispatchSemaphore(value: 0)
        let readDone = DispatchSemaphore(value: 0)
        let count = Mutex<Result<Int?, any Error>?>(nil)
        try writer.writeWithoutTransaction { db in
            try db.execute(sql: "DELETE FROM player")
            writer.spawnConcurrentRead { dbResult in
                // A queue reads at once, in this access: it must not wait.
                if writer is DatabasePool { writerDone.wait() }
                count.withLock { $0 = Result { try Int.fetchOne(dbResult.get(), sql: "SELECT COUNT(*) FROM player") } }
                readDone.signal()
            }
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Barbara')")
        }
        writerDone.signal()
        readDone.wait()
        return try count.withLock { $0 }!.get()
    }

    @Test func poolConcurrentReadSeesTheLastCommitAndNoLaterWrite() throws {
        let fixture = try DatabaseFixture(.pool)
        #expect(try countSeenByAConcurrentRead(fixture.writer) == 0)
        // The reader is back in the pool: a later read sees the insertion.
        #expect(try fixture.writer.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM player") } == 1)
    }

    @Test func queueConcurrentReadRunsAtOnce() throws {
        let fixture = try DatabaseFixture(.queue)
        #expect(try countSeenByAConcurrentRead(fixture.writer) == 0)
    }

    @Test(arguments: DatabaseKind.allCases)
    func typeErasedWritersForwardConcurrentReads(_ kind: DatabaseKind) throws {
        let fixture = try DatabaseFixture(kind)
        #expect(try countSeenByAConcurrentRead(AnyDatabaseWriter(fixture.writer)) == 0)
    }

    @Test(arguments: DatabaseKind.allCases)
    func aConcurrentReadCannotWrite(_ kind: DatabaseKind) throws {
        let fixture = try DatabaseFixture(kind)
        try fixture.createPlayerTable()
        let readDone = DispatchSemaphore(value: 0)
        let failure = Mutex<(any Error)?>(nil)
        fixture.writer.writeWithoutTransaction { _ in
            fixture.writer.spawnConcurrentRead { dbResult in
                do {
                    try dbResult.get().execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
                } catch {
                    failure.withLock { $0 = error }
                }
                readDone.signal()
            }
        }
        readDone.wait()
        let error = try #require(failure.withLock { $0 } as? DatabaseError)
        #expect(error.resultCode == .SQLITE_READONLY)
        #expect(try fixture.writer.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM player") } == 0)
    }

    /// A read of a pool sees the database as it was when the read began,
    /// even when its first statement comes after a commit of the writer.
    @Test func poolReadSnapshotStartsWhenTheReadBegins() throws {
        let fixture = try DatabaseFixture(.pool)
        try fixture.createPlayerTable()
        let pool = fixture.writer
        let readStarted = DispatchSemaphore(value: 0)
        let writerDone = DispatchSemaphore(value: 0)
        let count = Mutex<Int?>(nil)
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            try? pool.read { db in
                readStarted.signal()
                writerDone.wait()
                count.withLock { $0 = try? Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") }
            }
        }
        readStarted.wait()
        try pool.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')") }
        writerDone.signal()
        group.wait()
        #expect(count.withLock { $0 } == 0)
    }

    @Test func snapshotsAreNumberedPerPool() throws {
        let first = try DatabaseFixture(.pool)
        let second = try DatabaseFixture(.pool)
        let firstPool = try #require(first.writer as? DatabasePool)
        let secondPool = try #require(second.writer as? DatabasePool)
        let descriptions = try [firstPool, firstPool, secondPool].map { pool in
            try pool.makeSnapshot().read { $0.description }
        }
        #expect(descriptions == [
            "CipherDB.DatabasePool.snapshot.1", "CipherDB.DatabasePool.snapshot.2", "CipherDB.DatabasePool.snapshot.1",
        ])
    }
}
