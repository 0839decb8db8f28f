import CipherDB
import Foundation
import Synchronization
import TestSupport
import Testing

/// Collects the values of an observation, and waits for them.
final class ValueRecorder<Value: Sendable>: Sendable {
    private let state = Mutex<(values: [Value], errors: [String])>(([], []))

    func record(_ value: Value) { state.withLock { $0.values.append(value) } }
    func record(error: any Error) { state.withLock { $0.errors.append("\(error)") } }

    var values: [Value] { state.withLock { $0.values } }
    var errors: [String] { state.withLock { $0.errors } }

    /// Waits until `condition` holds (a hang guard of a minute).
    func wait(until condition: ([Value]) -> Bool) async throws {
        try await waitUntil("values that satisfy the condition; values so far: \(values), errors: \(errors)") { condition(values) }
    }
}

/// A text stream that records the lines written to it.
struct RecordingStream: TextOutputStream {
    let lines: ValueRecorder<String>

    mutating func write(_ string: String) {
        lines.record(string)
    }
}

@Suite struct ObservationTests {
    func makeFixture(_ kind: DatabaseKind) throws -> DatabaseFixture {
        let fixture = try DatabaseFixture(kind)
        try fixture.createPlayerTable()
        try fixture.writer.write { db in try db.execute(sql: "CREATE TABLE other (x)") }
        return fixture
    }

    static let countPlayers = ValueObservation.tracking { db in
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
    }

    func insertPlayer(_ writer: any DatabaseWriter, _ name: String) throws {
        try writer.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: [name]) }
    }

    @Test(arguments: DatabaseKind.allCases)
    func initialValueThenOneValuePerRelevantCommit(_ kind: DatabaseKind) async throws {
        let fixture = try makeFixture(kind)
        let recorder = ValueRecorder<Int>()
        let cancellable = Self.countPlayers.start(in: fixture.writer, scheduling: .task) { recorder.record(error: $0) } onChange: { recorder.record($0) }
        try await recorder.wait { $0 == kind.initialValues(0) }
        try insertPlayer(fixture.writer, "a")
        try await recorder.wait { $0 == kind.initialValues(0) + [1] }
        try insertPlayer(fixture.writer, "b")
        try await recorder.wait { $0 == kind.initialValues(0) + [1, 2] }
        cancellable.cancel()
        #expect(recorder.errors.isEmpty)
    }

    /// A pool fetches the initial value on a reader, without waiting for a
    /// write in progress; the writer's fetch, as it registers the
    /// observer, then delivers the commit that came between.
    @Test func aPoolDeliversItsInitialValueDuringAWriteThenTheCommitThatCameBetween() async throws {
        let fixture = try makeFixture(.pool)
        let writer = fixture.writer
        let writeInProgress = ValueRecorder<Bool>()
        let endWrite = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            try? writer.write { db in
                try db.execute(sql: "INSERT INTO player (name) VALUES ('a')")
                writeInProgress.record(true)
                endWrite.wait()
            }
        }
        var writeEnded = false
        defer { if !writeEnded { endWrite.signal() } }
        try await writeInProgress.wait { !$0.isEmpty }
        let recorder = ValueRecorder<Int>()
        let cancellable = Self.countPlayers.start(in: writer, scheduling: .task) { recorder.record(error: $0) } onChange: { recorder.record($0) }
        try await recorder.wait { $0 == [0] }
        endWrite.signal()
        writeEnded = true
        try await recorder.wait { $0 == [0, 1] }
        cancellable.cancel()
        #expect(recorder.errors.isEmpty)
    }

    @Test(arguments: DatabaseKind.allCases)
    func unrelatedTablesAndRollbacksProduceNoValue(_ kind: DatabaseKind) async throws {
        let fixture = try makeFixture(kind)
        let recorder = ValueRecorder<Int>()
        let cancellable = Self.countPlayers.start(in: fixture.writer, scheduling: .task) { recorder.record(error: $0) } onChange: { recorder.record($0) }
        try await recorder.wait { $0 == kind.initialValues(0) }
        try await fixture.writer.write { db in try db.execute(sql: "INSERT INTO other VALUES (1)") }
        try await fixture.writer.writeWithoutTransaction { db in
            try db.inTransaction {
                try db.execute(sql: "INSERT INTO player (name) VALUES ('rolled back')")
                return .rollback
            }
        }
        // A relevant commit after them: its value is the next one. Then a
        // sentinel commit: values come in commit order, so that nothing
        // came after the first before the sentinel's value.
        try insertPlayer(fixture.writer, "kept")
        try await recorder.wait { $0.count >= kind.initialValues(0).count + 1 }
        try insertPlayer(fixture.writer, "sentinel")
        try await recorder.wait { $0.last == 2 }
        #expect(recorder.values == kind.initialValues(0) + [1, 2])
        cancellable.cancel()
    }

    @Test(arguments: DatabaseKind.allCases)
    func burstsOfCommitsNeverEndOnAStaleValue(_ kind: DatabaseKind) async throws {
        let fixture = try makeFixture(kind)
        let recorder = ValueRecorder<Int>()
        let cancellable = Self.countPlayers.start(in: fixture.writer, scheduling: .task) { recorder.record(error: $0) } onChange: { recorder.record($0) }
        try await recorder.wait { $0 == kind.initialValues(0) }
        for index in 0..<50 {
            try insertPlayer(fixture.writer, "p\(index)")
        }
        try await recorder.wait { $0.last == 50 }
        // A sentinel commit: a stale value delivered after 50 would come
        // before the sentinel's, out of order (a fetch may see a later
        // commit than the one that caused it: a value may repeat).
        try insertPlayer(fixture.writer, "sentinel")
        try await recorder.wait { $0.last == 51 }
        #expect(recorder.values == recorder.values.sorted()) // in commit order
        cancellable.cancel()
    }

    @Test(arguments: DatabaseKind.allCases)
    func cancellationStopsDelivery(_ kind: DatabaseKind) async throws {
        let fixture = try makeFixture(kind)
        let recorder = ValueRecorder<Int>()
        let cancellable = Self.countPlayers.start(in: fixture.writer, scheduling: .task) { recorder.record(error: $0) } onChange: { recorder.record($0) }
        try await recorder.wait { $0 == kind.initialValues(0) }
        // A second observation, still on: the sentinel that the commit has
        // been observed.
        let sentinel = ValueRecorder<Int>()
        let sentinelCancellable = Self.countPlayers.start(in: fixture.writer, scheduling: .task) { sentinel.record(error: $0) } onChange: { sentinel.record($0) }
        try await sentinel.wait { $0 == kind.initialValues(0) }
        cancellable.cancel()
        try insertPlayer(fixture.writer, "a")
        try await sentinel.wait { $0 == kind.initialValues(0) + [1] }
        #expect(recorder.values == kind.initialValues(0))
        sentinelCancellable.cancel()
    }

    @Test(arguments: DatabaseKind.allCases)
    func fetchErrorsReachOnError(_ kind: DatabaseKind) async throws {
        let fixture = try makeFixture(kind)
        let recorder = ValueRecorder<Int>()
        let observation = ValueObservation.tracking { db -> Int in
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
            if count > 0 { throw DatabaseError(message: "fetch failed on purpose") }
            return count
        }
        let cancellable = observation.start(in: fixture.writer, scheduling: .task) { recorder.record(error: $0) } onChange: { recorder.record($0) }
        try await recorder.wait { $0 == kind.initialValues(0) }
        // Another observation, that does not fail: the sentinel that a
        // commit has been observed.
        let sentinel = ValueRecorder<Int>()
        let sentinelCancellable = Self.countPlayers.start(in: fixture.writer, scheduling: .task) { sentinel.record(error: $0) } onChange: { sentinel.record($0) }
        try await sentinel.wait { $0 == kind.initialValues(0) }
        try insertPlayer(fixture.writer, "a")
        try await waitUntil("the observation's error; errors so far: \(recorder.errors)") { !recorder.errors.isEmpty }
        #expect(recorder.errors.count == 1)
        #expect(recorder.errors.first?.contains("fetch failed on purpose") == true)
        try insertPlayer(fixture.writer, "b") // the observation has stopped
        try await sentinel.wait { $0.last == 2 }
        #expect(recorder.errors.count == 1)
        #expect(recorder.values == kind.initialValues(0))
        cancellable.cancel()
        sentinelCancellable.cancel()
    }

    @Test(arguments: DatabaseKind.allCases)
    func valuesAsAnAsyncSequenceWithMapAndRemoveDuplicates(_ kind: DatabaseKind) async throws {
        let fixture = try makeFixture(kind)
        let writer = fixture.writer
        let observation = ValueObservation
            .tracking { db in try String.fetchAll(db, sql: "SELECT name FROM player ORDER BY name") }
            .map { $0.joined(separator: ",") }
            .removeDuplicates()
        var received: [String] = []
        for try await names in observation.values(in: writer) {
            received.append(names)
            switch names {
            case "":
                try insertPlayer(writer, "b")
            case "b":
                // Same value: no element for it.
                try await writer.write { db in try db.execute(sql: "UPDATE player SET score = 1") }
                try insertPlayer(writer, "a")
            default:
                break
            }
            if names == "a,b" { break }
        }
        #expect(received == ["", "b", "a,b"])
    }

    /// An observation tracks tables only: a view is read through its
    /// tables, which the region has, and SQLite's schema tables, read to
    /// learn the primary key, report no change to observers.
    @Test(arguments: DatabaseKind.allCases)
    func observationsTrackTablesNotViewsNorSQLiteTables(_ kind: DatabaseKind) async throws {
        let fixture = try makeFixture(kind)
        try await fixture.writer.write { db in try db.execute(sql: "CREATE VIEW champion AS SELECT * FROM player") }
        let regionOfView = try await fixture.writer.read { db in
            try SQLRequest<Row>(sql: "SELECT name FROM champion").databaseRegion(db)
        }
        #expect(regionOfView.description == "champion(name),player(id,name,score)")
        let recorder = ValueRecorder<Int>()
        let regions = ValueRecorder<String>()
        let observation = ValueObservation
            .tracking { db in
                // `filter(key:)` reads the schema to find the primary key.
                try Row.fetchAll(db, sql: "SELECT name FROM champion").count + Player.filter(key: 1).fetchCount(db)
            }
            .handleEvents(willTrackRegion: { regions.record($0.description) })
        let cancellable = observation.start(in: fixture.writer, scheduling: .task) { recorder.record(error: $0) } onChange: { recorder.record($0) }
        try await recorder.wait { $0 == kind.initialValues(0) }
        try insertPlayer(fixture.writer, "Arthur")
        try await recorder.wait { $0 == kind.initialValues(0) + [2] }
        #expect(regions.values.first == "player(id,name,score)")
        #expect(recorder.errors.isEmpty)
        cancellable.cancel()
    }

    /// GRDB's issue 1746: the task of a write is cancelled once the write
    /// has committed (by a transaction observer, here). The observation
    /// that fetches in the access of the commit, on a queue, is not.
    @Test func anObservationFetchesAfterACommitWhoseTaskIsThenCancelled() async throws {
        final class CancelObserver: TransactionObserver {
            let task: Task<Void, Never>
            init(task: Task<Void, Never>) { self.task = task }
            func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
            func databaseDidChange(with event: DatabaseEvent) {}
            func databaseDidCommit(_ db: Database) { task.cancel() }
            func databaseDidRollback(_ db: Database) {}
        }
        let fixture = try makeFixture(.queue)
        let writer = fixture.writer
        let (startWrite, startWriteContinuation) = AsyncStream.makeStream(of: Void.self)
        let task = Task {
            for await _ in startWrite {}
            try? await writer.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('a')") }
        }
        // Added first: the task is cancelled before the observation fetches.
        writer.add(transactionObserver: CancelObserver(task: task), extent: .databaseLifetime)
        let recorder = ValueRecorder<Int>()
        let cancellable = Self.countPlayers.start(in: writer, scheduling: .task) { recorder.record(error: $0) } onChange: { recorder.record($0) }
        try await recorder.wait { $0 == [0] }
        startWriteContinuation.finish()
        await task.value
        try await waitUntil("a value or an error after the write") { recorder.values.count > 1 || !recorder.errors.isEmpty }
        #expect(recorder.values == [0, 1])
        #expect(recorder.errors.isEmpty)
        cancellable.cancel()
    }

    @Test func queryInterfaceRequestsTrackTheirRegion() async throws {
        let fixture = try makeFixture(.pool)
        let recorder = ValueRecorder<Int>()
        let regions = ValueRecorder<String>()
        let observation = ValueObservation
            .tracking { db in try Player.all().orderedByScore().fetchCount(db) }
            .handleEvents(willTrackRegion: { regions.record($0.description) })
        let cancellable = observation.start(in: fixture.writer, scheduling: .task) { recorder.record(error: $0) } onChange: { recorder.record($0) }
        try await recorder.wait { $0 == DatabaseKind.pool.initialValues(0) }
        try await fixture.writer.write { db in
            var player = Player(name: "Arthur", score: 1)
            try player.insert(db)
        }
        try await recorder.wait { $0 == DatabaseKind.pool.initialValues(0) + [1] }
        let region = try await fixture.writer.read { db in try Player.all().databaseRegion(db) }
        #expect(region.description == "player(id,name,score)")
        cancellable.cancel()
    }

    @Test(arguments: DatabaseKind.allCases)
    func updatesBySQLNotifyObserversOfTheUpdatedColumnsOnly(_ kind: DatabaseKind) async throws {
        let fixture = try makeFixture(kind)
        try insertPlayer(fixture.writer, "a")
        try await fixture.writer.write { db in try db.execute(sql: "ALTER TABLE player ADD COLUMN team TEXT") }
        let recorder = ValueRecorder<Int>()
        let cancellable = ValueObservation.tracking { db in try Int.fetchOne(db, sql: "SELECT score FROM player")! }
            .start(in: fixture.writer, scheduling: .task) { recorder.record(error: $0) } onChange: { recorder.record($0) }
        try await recorder.wait { $0 == kind.initialValues(0) }
        // A statement with arguments first: the broker must not keep its
        // updated columns for the statements of `execute(sql:)`.
        try await fixture.writer.write { db in
            try db.makeStatement(sql: "UPDATE player SET team = ?").execute(arguments: ["red"])
            try db.execute(sql: "UPDATE player SET score = 10")
        }
        try await recorder.wait { $0 == kind.initialValues(0) + [10] }
        try await fixture.writer.write { db in try db.execute(sql: "UPDATE player SET team = 'blue'") }
        try await fixture.writer.write { db in try db.execute(sql: "UPDATE player SET score = 20") }
        try await recorder.wait { $0 == kind.initialValues(0) + [10, 20] }
        cancellable.cancel()
        #expect(recorder.errors.isEmpty)
    }

    @Test func printReportsEachStep() async throws {
        let fixture = try makeFixture(.queue)
        let lines = ValueRecorder<String>()
        let recorder = ValueRecorder<Int>()
        let cancellable = Self.countPlayers.print("players", to: RecordingStream(lines: lines))
            .start(in: fixture.writer, scheduling: .task) { recorder.record(error: $0) } onChange: { recorder.record($0) }
        try await recorder.wait { $0 == [0] }
        try insertPlayer(fixture.writer, "a")
        try await recorder.wait { $0 == [0, 1] }
        cancellable.cancel()
        #expect(lines.values == [
            "players: start", "players: fetch", "players: tracked region: player(*)", "players: value: 0",
            "players: database did change", "players: fetch", "players: value: 1", "players: cancel",
        ])
    }

    @MainActor
    @Test func immediateSchedulingDeliversTheInitialValueSynchronously() throws {
        let fixture = try makeFixture(.queue)
        let recorder = ValueRecorder<Int>()
        let cancellable = Self.countPlayers.start(in: fixture.writer, scheduling: .immediate) { recorder.record(error: $0) } onChange: { recorder.record($0) }
        #expect(recorder.values == [0])
        cancellable.cancel()
    }

    @Test(arguments: DatabaseKind.allCases)
    func regionObservationNotifiesCommits(_ kind: DatabaseKind) async throws {
        let fixture = try makeFixture(kind)
        let recorder = ValueRecorder<Int>()
        let observation = DatabaseRegionObservation(tracking: Table("player"))
        let cancellable = observation.start(in: fixture.writer) { recorder.record(error: $0) } onChange: { db in
            recorder.record((try? Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")) ?? -1)
        }
        // No wait: the observer is added by an access of the writer's
        // queue, which the writes below follow.
        try await fixture.writer.write { db in try db.execute(sql: "INSERT INTO other VALUES (1)") }
        try insertPlayer(fixture.writer, "a")
        try await recorder.wait { $0 == [1] }
        try await fixture.writer.write { db in try db.execute(sql: "DELETE FROM player") } // not truncated: observed
        try await recorder.wait { $0 == [1, 0] }
        cancellable.cancel()
    }

    /// `start` registers the observer before it returns, as in GRDB: in a
    /// write access, it sees the commit of that very access.
    @Test(arguments: DatabaseKind.allCases)
    func regionObservationStartedInAWriteSeesItsCommit(_ kind: DatabaseKind) throws {
        let fixture = try makeFixture(kind)
        let writer = fixture.writer
        let recorder = ValueRecorder<Int>()
        let observation = DatabaseRegionObservation(tracking: Table("player"))
        let cancellable = try writer.write { db in
            let cancellable = observation.start(in: writer) { recorder.record(error: $0) } onChange: { db in
                recorder.record((try? Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")) ?? -1)
            }
            try db.execute(sql: "INSERT INTO player (name) VALUES ('a')")
            return cancellable
        }
        // The commit notifies the observer before `write` returns.
        #expect(recorder.values == [1])
        #expect(recorder.errors.isEmpty)
        cancellable.cancel()
    }

    @Test func transactionObserversSeeEventsCommitsAndRollbacks() throws {
        final class Observer: TransactionObserver, @unchecked Sendable {
            // @unchecked: only used on the queue's thread, then read after.
            var log: [String] = []
            func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { eventKind.tableName == "player" }
            func databaseDidChange(with event: DatabaseEvent) { log.append("\(event.kind) \(event.tableName) \(event.rowID)") }
            func databaseDidCommit(_ db: Database) { log.append("commit") }
            func databaseDidRollback(_ db: Database) { log.append("rollback") }
        }
        let dbQueue = try DatabaseQueue()
        let observer = Observer()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT); CREATE TABLE other (x)")
        }
        dbQueue.writeWithoutTransaction { db in db.add(transactionObserver: observer) }
        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (name) VALUES ('a')")
            try db.execute(sql: "INSERT INTO other VALUES (1)")
            try db.execute(sql: "UPDATE player SET name = 'b'")
        }
        try? dbQueue.write { db in
            try db.execute(sql: "DELETE FROM player")
            throw DatabaseError(message: "rollback")
        }
        #expect(observer.log == ["insert player 1", "update player 1", "commit", "delete player 1", "rollback"])
    }
}
