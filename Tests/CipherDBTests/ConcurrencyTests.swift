import CipherDB
import Foundation
import Synchronization
import TestSupport
import Testing

@Suite struct ConcurrencyTests {
    /// The number of players, read in an async access.
    func playerCount(_ reader: any DatabaseReader) async throws -> Int {
        try await reader.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! }
    }

    static let endlessQuery = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT COUNT(*) FROM c"

    @Test func poolReadSeesItsSnapshotWhileWriterCommits() throws {
        let fixture = try DatabaseFixture(.pool)
        try fixture.createPlayerTable()
        try fixture.writer.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('a')") }
        let pool = fixture.writer
        let readerStarted = DispatchSemaphore(value: 0)
        let writerDone = DispatchSemaphore(value: 0)
        let counts = TraceLog()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            try? pool.read { (db) throws in
                counts.append(String(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!))
                readerStarted.signal()
                writerDone.wait()
                // Same transaction: the commit that happened meanwhile is not visible.
                counts.append(String(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!))
            }
        }
        readerStarted.wait()
        try pool.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('b')") }
        writerDone.signal()
        group.wait()
        #expect(counts.lines == ["1", "1"])
        #expect(try pool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM player") } == 2)
    }

    @Test func poolRunsReadsConcurrently() throws {
        let fixture = try DatabaseFixture(.pool)
        let pool = fixture.writer
        // Two reads that each wait for the other: they deadlock unless
        // they run at the same time.
        let first = DispatchSemaphore(value: 0)
        let second = DispatchSemaphore(value: 0)
        let group = DispatchGroup()
        let results = TraceLog()
        DispatchQueue.global().async(group: group) {
            try? pool.read { _ in
                first.signal()
                results.append(second.wait(timeout: .now() + 10) == .success ? "ok" : "timeout")
            }
        }
        DispatchQueue.global().async(group: group) {
            try? pool.read { _ in
                second.signal()
                results.append(first.wait(timeout: .now() + 10) == .success ? "ok" : "timeout")
            }
        }
        group.wait()
        #expect(results.lines == ["ok", "ok"])
    }

    @Test(arguments: DatabaseKind.allCases)
    func interruptStopsALongQuery(_ kind: DatabaseKind) throws {
        let fixture = try DatabaseFixture(kind)
        let writer = fixture.writer
        let started = DispatchSemaphore(value: 0)
        let outcome = TraceLog()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            do {
                try writer.read { (db) throws in
                    started.signal()
                    _ = try Int.fetchOne(db, sql: Self.endlessQuery)
                }
                outcome.append("finished")
            } catch let error as DatabaseError where error.resultCode == .SQLITE_INTERRUPT {
                outcome.append("interrupted")
            } catch {
                outcome.append("other: \(error)")
            }
        }
        started.wait()
        // The read may not have started stepping yet: interrupt until it stops.
        while group.wait(timeout: .now() + 0.05) == .timedOut {
            writer.interrupt()
        }
        #expect(outcome.lines == ["interrupted"])
        // The connection is usable afterwards.
        #expect(try writer.read { try Int.fetchOne($0, sql: "SELECT 1") } == 1)
    }

    @Test(arguments: DatabaseKind.allCases)
    func taskCancellationInterruptsAndRollsBackAnAsyncWrite(_ kind: DatabaseKind) async throws {
        let fixture = try DatabaseFixture(kind)
        try fixture.createPlayerTable()
        let writer = fixture.writer
        // The endless query calls started() once it runs: the task is
        // cancelled while SQLite executes it, not before.
        let started = TestFlag()
        let task = Task {
            try await writer.write { (db) throws in
                db.add(function: DatabaseFunction("started", argumentCount: 0) { _ in started.set(); return 1 })
                try db.execute(sql: "INSERT INTO player (name) VALUES ('a')")
                _ = try Int.fetchOne(db, sql: "WITH RECURSIVE c(x) AS (SELECT started() UNION ALL SELECT x + 1 FROM c) SELECT COUNT(*) FROM c")
            }
        }
        // Cancelled whatever happens: otherwise the query runs for ever.
        defer { task.cancel() }
        // A new task may wait minutes for a thread in a full run on two
        // loaded cores: a longer hang guard.
        try await waitUntil("the endless query runs", timeout: hangGuard * 5) { started.isSet }
        task.cancel()
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
        let count = try await playerCount(writer)
        #expect(count == 0)
    }

    @Test(arguments: DatabaseKind.allCases)
    func cancellationBetweenTwoStatementsStopsTheNextOne(_ kind: DatabaseKind) async throws {
        let fixture = try DatabaseFixture(kind)
        try fixture.createPlayerTable()
        let writer = fixture.writer
        let betweenStatements = Mutex(false)
        let cancelled = DispatchSemaphore(value: 0)
        let task = Task {
            try await writer.write { db in
                try db.execute(sql: "INSERT INTO player (name) VALUES ('a')")
                betweenStatements.withLock { $0 = true }
                cancelled.wait()
                // No statement runs now: sqlite3_interrupt alone would not
                // stop this one.
                _ = try Int.fetchOne(db, sql: Self.endlessQuery)
            }
        }
        // Cancelled, then let go, whatever happens: the endless query must
        // not start.
        defer {
            task.cancel()
            cancelled.signal()
        }
        try await waitUntil("the write is between its statements", timeout: hangGuard * 5) { betweenStatements.withLock { $0 } }
        task.cancel()
        cancelled.signal()
        await #expect(throws: CancellationError.self) { try await task.value }
        let count = try await playerCount(writer)
        #expect(count == 0)
        // The next access is not cancelled.
        try await writer.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('b')") }
    }

    @Test(arguments: DatabaseKind.allCases)
    func aReadCancelledDuringItsAccessLeavesTheConnectionWritable(_ kind: DatabaseKind) async throws {
        let fixture = try DatabaseFixture(kind)
        try fixture.createPlayerTable()
        let writer = fixture.writer
        // A first read prepares the statements that end a read.
        try await writer.read { _ in }
        let task = Task {
            try await writer.read { _ in
                // Cancelled inside the access: only the statements that end
                // it (the commit, and on a queue `PRAGMA query_only = 0`)
                // are left to run.
                withUnsafeCurrentTask { $0?.cancel() }
            }
        }
        _ = await task.result
        // On a queue, the read ran on the writer: it must write again.
        try await writer.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('a')") }
        #expect(try await playerCount(writer) == 1)
    }

    /// The task of a read cancelled once the read has fetched all it needed:
    /// the read succeeds, as in GRDB. A statement that would run after the
    /// cancellation throws, even one of `execute(sql:)`, which SQLite's
    /// interruption alone would not stop (no statement runs when it comes).
    @Test(arguments: DatabaseKind.allCases)
    func aReadCancelledDuringItsAccessSucceedsUnlessAStatementFollows(_ kind: DatabaseKind) async throws {
        let fixture = try DatabaseFixture(kind)
        try fixture.createPlayerTable()
        let reader = fixture.writer
        for runsAStatementAfterCancellation in [false, true] {
            let task = Task {
                try await reader.read { db in
                    let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")
                    withUnsafeCurrentTask { $0?.cancel() }
                    if runsAStatementAfterCancellation {
                        try db.execute(sql: "SELECT 1")
                    }
                    return count
                }
            }
            if runsAStatementAfterCancellation {
                await #expect(throws: CancellationError.self) { try await task.value }
            } else {
                #expect(try await task.value == 0)
            }
            // The next access is not cancelled.
            #expect(try await playerCount(reader) == 0)
        }
    }

    /// A write whose task is cancelled during the access rolls back, even
    /// when no statement follows the cancellation: its commit throws.
    @Test(arguments: DatabaseKind.allCases)
    func aWriteCancelledDuringItsAccessRollsBack(_ kind: DatabaseKind) async throws {
        let fixture = try DatabaseFixture(kind)
        try fixture.createPlayerTable()
        let writer = fixture.writer
        let task = Task {
            try await writer.write { db in
                try db.execute(sql: "INSERT INTO player (name) VALUES ('a')")
                withUnsafeCurrentTask { $0?.cancel() }
            }
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(try await playerCount(writer) == 0)
    }

    @Test(arguments: DatabaseKind.allCases)
    func cancelledTaskDoesNotStartItsAccess(_ kind: DatabaseKind) async throws {
        let fixture = try DatabaseFixture(kind)
        try fixture.createPlayerTable()
        let writer = fixture.writer
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await writer.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('a')") }
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        let count = try await playerCount(writer)
        #expect(count == 0)
    }

    @TaskLocal static var taskMarker: String?

    /// An async barrier write runs in its task, as other async accesses:
    /// it sees the task's local values, and the cancellation of the task
    /// during the write stops its next statement.
    @Test(arguments: DatabaseKind.allCases)
    func asyncBarrierWritesRunInTheirTask(_ kind: DatabaseKind) async throws {
        let fixture = try DatabaseFixture(kind)
        let writer = fixture.writer
        let marker = try await Self.$taskMarker.withValue("barrier") {
            try await writer.barrierWriteWithoutTransaction { _ in Self.taskMarker }
        }
        #expect(marker == "barrier")
        let task = Task {
            try await writer.barrierWriteWithoutTransaction { db in
                withUnsafeCurrentTask { $0?.cancel() }
                try db.execute(sql: "CREATE TABLE t (a)")
            }
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(try await writer.read { try $0.tableExists("t") } == false)
    }

    @Test(arguments: DatabaseKind.allCases)
    func asyncBarrierWritesRunAndReturnTheirValue(_ kind: DatabaseKind) async throws {
        let fixture = try DatabaseFixture(kind)
        try fixture.createPlayerTable()
        // Many times: the closure of an async barrier write on a pool used
        // to outlive its access now and then, which stopped the program
        // ("closure argument was escaped in withoutActuallyEscaping block").
        for index in 1...200 {
            let count = try await fixture.writer.barrierWriteWithoutTransaction { db in
                try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["p\(index)"])
                return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
            }
            #expect(count == index)
        }
        let cancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await fixture.writer.barrierWriteWithoutTransaction { db in try db.execute(sql: "DELETE FROM player") }
        }
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        #expect(try await playerCount(fixture.writer) == 200)
    }

    @Test(arguments: DatabaseKind.allCases)
    func asyncAccessesFromManyTasksAreSerialized(_ kind: DatabaseKind) async throws {
        let fixture = try DatabaseFixture(kind)
        try fixture.createPlayerTable()
        let writer = fixture.writer
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<50 {
                group.addTask {
                    try await writer.write { (db) throws in
                        try db.execute(sql: "INSERT INTO player (name, score) VALUES (?, ?)", arguments: ["p\(index)", index])
                    }
                    _ = try await writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") }
                }
            }
            try await group.waitForAll()
        }
        let sum = try await writer.read { db in try Int.fetchOne(db, sql: "SELECT SUM(score) FROM player")! }
        #expect(sum == (0..<50).reduce(0, +))
    }

    @Test(arguments: DatabaseKind.allCases)
    func asyncReadAndAsyncWriteCallBack(_ kind: DatabaseKind) async throws {
        let fixture = try DatabaseFixture(kind)
        try fixture.createPlayerTable()
        let writer = fixture.writer
        let inserted: Int64 = try await withCheckedThrowingContinuation { continuation in
            writer.asyncWrite({ (db) throws in
                try db.execute(sql: "INSERT INTO player (name) VALUES ('a')")
                return db.lastInsertedRowID
            }, completion: { _, result in continuation.resume(with: result) })
        }
        #expect(inserted == 1)
        let count: Int = try await withCheckedThrowingContinuation { continuation in
            writer.asyncRead { result in
                continuation.resume(with: Result { try Int.fetchOne(result.get(), sql: "SELECT COUNT(*) FROM player")! })
            }
        }
        #expect(count == 1)
    }

    /// Async itself: its waits never hold a thread of the cooperative
    /// pool, which the async barrier's task needs to start (a blocking wait
    /// here once starved it for the whole hang guard on a busy machine).
    @Test(arguments: [false, true])
    func barrierWriteWaitsForReadsToEnd(async: Bool) async throws {
        let fixture = try DatabaseFixture(.pool)
        let pool = try #require(fixture.writer as? DatabasePool)
        let readStarted = DispatchSemaphore(value: 0)
        let readMayEnd = DispatchSemaphore(value: 0)
        let events = TraceLog()
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            try? pool.read { _ in
                readStarted.signal()
                readMayEnd.wait()
                events.append("read end")
            }
        }
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                readStarted.wait()
                continuation.resume()
            }
        }
        if async {
            group.enter()
            Task {
                defer { group.leave() }
                try? await pool.barrierWriteWithoutTransaction { _ in events.append("barrier") }
            }
        } else {
            DispatchQueue.global().async(group: group) {
                try? pool.barrierWriteWithoutTransaction { _ in events.append("barrier") }
            }
        }
        // The read ends once the barrier is known to wait for it.
        try await waitUntil("the barrier write waits") { pool.pendingBarrierCount == 1 }
        #expect(events.lines.isEmpty)
        readMayEnd.signal()
        await withCheckedContinuation { continuation in group.notify(queue: .global()) { continuation.resume() } }
        #expect(events.lines == ["read end", "barrier"])
        #expect(pool.pendingBarrierCount == 0)
    }

    @Test func poolOpensAtMostMaximumReaderCountReaders() throws {
        var configuration = encryptedConfiguration()
        configuration.maximumReaderCount = 2
        let folder = try TemporaryFolder()
        let pool = try DatabasePool(path: folder.path("db.sqlite"), configuration: configuration)
        let reads = 8
        // (active, entered) reads: each read stays until another is active
        // beside it, or no other read remains to come.
        let counts = Mutex((active: 0, entered: 0))
        let observed = TraceLog()
        let group = DispatchGroup()
        for _ in 0..<reads {
            // A thread each, not a queue's few: every read is asked for at once.
            group.enter()
            Thread {
                try? pool.read { _ in
                    observed.append(String(counts.withLock { $0.active += 1; $0.entered += 1; return $0.active }))
                    try? waitUntilBlocking("a second read beside this one") {
                        counts.withLock { $0.active >= 2 || $0.entered == reads }
                    }
                    counts.withLock { $0.active -= 1 }
                }
                group.leave()
            }.start()
        }
        group.wait()
        #expect(observed.lines.count == reads)
        // Two at once, never more.
        #expect(observed.lines.compactMap(Int.init).max() == 2)
    }

    /// libdispatch knows specific keys by address: a queue may still hold
    /// a value for a freed key whose address a connection's key reuses.
    /// Accesses from that queue are not reentrant.
    @Test func accessesFromAQueueHoldingAStaleSpecificKeyAreNotReentrant() throws {
        let queue = DispatchQueue(label: "stale specific")
        for _ in 0..<20 {
            do {
                let key = DispatchSpecificKey<Void>()
                queue.setSpecific(key: key, value: ())
            }
            let dbQueue = try DatabaseQueue()
            let count = try queue.sync {
                try dbQueue.write { db in try Int.fetchOne(db, sql: "SELECT 1") }
            }
            #expect(count == 1)
        }
    }
}
