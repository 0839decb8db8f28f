import CipherDB
import Foundation
import TestSupport
import Testing

/// How observations learn their region, write access, and the databases
/// that do not change.
@Suite struct ObservationModeTests {
    func makeFixture(_ kind: DatabaseKind) throws -> DatabaseFixture {
        let fixture = try DatabaseFixture(kind)
        try fixture.createPlayerTable()
        try fixture.writer.write { db in try db.execute(sql: "CREATE TABLE other (x)") }
        return fixture
    }

    @Test(arguments: DatabaseKind.allCases)
    func explicitRegionsAreObservedWhateverTheFetchReads(_ kind: DatabaseKind) async throws {
        let fixture = try makeFixture(kind)
        let recorder = ValueRecorder<Int>()
        let observation = ValueObservation.tracking(region: Table("other")) { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
        }
        let cancellable = observation.start(in: fixture.writer, scheduling: .task) { recorder.record(error: $0) } onChange: { recorder.record($0) }
        try await recorder.wait { $0 == kind.initialValues(0) }
        try await fixture.writer.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('a')") }
        try await fixture.writer.write { db in try db.execute(sql: "INSERT INTO other VALUES (1)") }
        // Only the change of `other` triggers a fetch, which sees both.
        try await recorder.wait { $0 == kind.initialValues(0) + [1] }
        cancellable.cancel()
    }

    @Test(arguments: DatabaseKind.allCases)
    func constantRegionIsTheOneOfTheInitialFetch(_ kind: DatabaseKind) async throws {
        let fixture = try makeFixture(kind)
        let regions = ValueRecorder<String>()
        let recorder = ValueRecorder<Int>()
        let observation = ValueObservation
            .trackingConstantRegion { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! }
            .handleEvents(willTrackRegion: { regions.record($0.description) })
        let cancellable = observation.start(in: fixture.writer, scheduling: .task) { recorder.record(error: $0) } onChange: { recorder.record($0) }
        try await recorder.wait { $0 == kind.initialValues(0) }
        try await fixture.writer.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('a')") }
        try await recorder.wait { $0 == kind.initialValues(0) + [1] }
        #expect(regions.values == ["player(*)"])
        cancellable.cancel()
    }

    @Test(arguments: DatabaseKind.allCases)
    func notifyChangesTriggersAFetch(_ kind: DatabaseKind) async throws {
        let fixture = try makeFixture(kind)
        let recorder = ValueRecorder<Int>()
        let observation = ValueObservation.tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! }
        let cancellable = observation.start(in: fixture.writer, scheduling: .task) { recorder.record(error: $0) } onChange: { recorder.record($0) }
        try await recorder.wait { $0 == kind.initialValues(0) }
        try await fixture.writer.write { db in try db.notifyChanges(in: Table("player")) }
        try await recorder.wait { $0 == kind.initialValues(0) + [0] }
        try await fixture.writer.write { db in try db.notifyChanges(in: Table("other")) }
        // A sentinel commit: values come in commit order, so that a value
        // for `other` would come before its value.
        try await fixture.writer.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('sentinel')") }
        try await recorder.wait { $0.last == 1 }
        #expect(recorder.values == kind.initialValues(0) + [0, 1])
        cancellable.cancel()
    }

    @Test(arguments: DatabaseKind.allCases)
    func observationsRequiringWriteAccessMayWrite(_ kind: DatabaseKind) async throws {
        let fixture = try makeFixture(kind)
        let recorder = ValueRecorder<Int>()
        var observation = ValueObservation.tracking { db in
            try db.execute(sql: "CREATE TEMP TABLE IF NOT EXISTS scratch (x)")
            return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
        }
        observation.requiresWriteAccess = true
        let cancellable = observation.start(in: fixture.writer, scheduling: .task) { recorder.record(error: $0) } onChange: { recorder.record($0) }
        try await recorder.wait { $0 == [0] }
        try await fixture.writer.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('a')") }
        // One value per commit, even though the first fetch created the
        // table and the next one reads another region.
        try await recorder.wait { $0 == [0, 1] }
        #expect(recorder.errors.isEmpty)
        cancellable.cancel()
    }

    @Test func snapshotsGiveTheirOnlyValue() async throws {
        let fixture = try makeFixture(.pool)
        let dbPool = try #require(fixture.writer as? DatabasePool)
        let snapshot = try dbPool.makeSnapshot()
        let recorder = ValueRecorder<Int>()
        let observation = ValueObservation.tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! }
        let cancellable = observation.start(in: snapshot, scheduling: .task) { recorder.record(error: $0) } onChange: { recorder.record($0) }
        try await recorder.wait { $0 == [0] }
        // An observation of the pool: the sentinel that the commit has been
        // observed.
        let sentinel = ValueRecorder<Int>()
        let sentinelCancellable = observation.start(in: dbPool, scheduling: .task) { sentinel.record(error: $0) } onChange: { sentinel.record($0) }
        try await sentinel.wait { $0 == DatabaseKind.pool.initialValues(0) }
        try await dbPool.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('a')") }
        try await sentinel.wait { $0 == DatabaseKind.pool.initialValues(0) + [1] }
        #expect(recorder.values == [0])
        sentinelCancellable.cancel()
        cancellable.cancel()
    }

    @Test(arguments: DatabaseKind.allCases)
    func typeErasedWritersAreObservedLikeTheirBase(_ kind: DatabaseKind) async throws {
        let fixture = try makeFixture(kind)
        let recorder = ValueRecorder<Int>()
        let observation = ValueObservation.tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! }
        let cancellable = observation.start(in: AnyDatabaseReader(AnyDatabaseWriter(fixture.writer)), scheduling: .task) {
            recorder.record(error: $0)
        } onChange: {
            recorder.record($0)
        }
        try await recorder.wait { $0 == kind.initialValues(0) }
        try await fixture.writer.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('a')") }
        try await recorder.wait { $0 == kind.initialValues(0) + [1] }
        cancellable.cancel()
    }

    /// The observations that fetch in the access of each commit: on a
    /// queue, and on a pool when they require write access.
    static let fetchingInCommitAccess: [(DatabaseKind, Bool)] = [(.queue, false), (.queue, true), (.pool, true)]

    @Test(arguments: fetchingInCommitAccess)
    func everyCommitOfOneAccessIsNotified(_ kind: DatabaseKind, requiresWriteAccess: Bool) async throws {
        let fixture = try makeFixture(kind)
        let recorder = ValueRecorder<Int>()
        var observation = ValueObservation.tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! }
        observation.requiresWriteAccess = requiresWriteAccess
        let cancellable = observation.start(in: fixture.writer, scheduling: .task) { recorder.record(error: $0) } onChange: { recorder.record($0) }
        try await recorder.wait { $0 == [0] }
        try await fixture.writer.writeWithoutTransaction { db in
            try db.execute(sql: "INSERT INTO player (name) VALUES ('a')")
            try db.execute(sql: "UPDATE player SET score = 1")
            try db.execute(sql: "INSERT INTO player (name) VALUES ('b')")
        }
        try await recorder.wait { $0 == [0, 1, 1, 2] }
        cancellable.cancel()
    }

    /// A statement commits while a cursor of the same SQL as the
    /// observation's fetch is running: the fetch, in the access of the
    /// commit, must not reset the cursor's statement.
    @Test(arguments: fetchingInCommitAccess)
    func fetchesDoNotDisturbARunningStatementOfTheSameSQL(_ kind: DatabaseKind, requiresWriteAccess: Bool) async throws {
        let fixture = try makeFixture(kind)
        try await fixture.writer.write { db in
            for name in ["a", "b", "c"] { try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: [name]) }
        }
        let sql = "SELECT id, score FROM player ORDER BY id"
        let recorder = ValueRecorder<[Int]>()
        var observation = ValueObservation.tracking { db in try Row.fetchAll(db, sql: sql).map { $0["score"] as Int } }
        observation.requiresWriteAccess = requiresWriteAccess
        let cancellable = observation.start(in: fixture.writer, scheduling: .task) { recorder.record(error: $0) } onChange: { recorder.record($0) }
        try await recorder.wait { $0 == [[0, 0, 0]] }
        let visited = try await fixture.writer.writeWithoutTransaction { db -> [Int64] in
            var visited: [Int64] = []
            let rows = try Row.fetchCursor(db, sql: sql)
            while let row = try rows.next() {
                let id: Int64 = row["id"]
                visited.append(id)
                if visited.count > 3 { break } // a restarted cursor would never end
                // Commits at once: SQLite does not wait for the cursor, which only reads.
                try db.execute(sql: "UPDATE player SET score = 1 WHERE id = ?", arguments: [id])
            }
            return visited
        }
        #expect(visited == [1, 2, 3])
        try await recorder.wait { $0 == [[0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 1]] }
        #expect(recorder.errors.isEmpty)
        cancellable.cancel()
    }
}
