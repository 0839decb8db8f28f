import CipherDB
import CipherSync
import Foundation
import Players
import PlayersOnServer
import PlayersShared
import PlayersSync
import ServerTestSupport
import SyncEngine
import Synchronization
import TestSupport
import Testing

/// Syncs from the real server on loopback into encrypted files.
@Suite struct PlayersMergeTests {
    @Test func aFirstSyncInsertsEveryPlayerOfTheServer() async throws {
        try await withLiveServer(seed: 25) { store, url in
            let database = try ClientDatabase()
            let report = try await database.client(url).sync()
            #expect(report.kind == .snapshot)
            #expect(report.counts == SyncCounts(inserted: 25))
            #expect(report.cursorBefore == nil)
            #expect(report.cursorAfter == store.cursor(25))
            #expect(report.bytesReceived > 0)
            #expect(try database.entries() == (try await serverPlayers(store)))
            let position = try await database.appDatabase.syncStore().syncPosition()
            #expect(position.cursor == store.cursor(25))
            #expect(position.endpoint == "\(url.absoluteString)/v1/sync/rows?tables=player")
        }
    }

    @Test func aDeltaAppliesTheServersInsertsUpdatesAndDeletes() async throws {
        try await withLiveServer(seed: 5) { store, url in
            let database = try ClientDatabase()
            _ = try await database.client(url).sync()
            let players = try await serverPlayers(store)
            _ = try await store.insert(name: "Zaphod", score: 42)
            _ = try await store.update(players[0].uuid, score: 999)
            _ = try await store.update(players[1].uuid, name: "Renamed")
            _ = try await store.delete(players[2].uuid)

            let report = try await database.client(url).sync()
            #expect(report.kind == .delta)
            #expect(report.counts == SyncCounts(inserted: 1, updated: 2, deleted: 1))
            #expect(report.description == "+1 ~2 -1, cursor 9")
            #expect(try database.entries() == (try await serverPlayers(store)))
        }
    }

    /// The merge writes the players whose values changed, once, and no
    /// other: an unchanged player is not written again. (It sets every
    /// column of a player it writes, not only those that changed: the
    /// engine's update is one statement per chunk of rows. `UPDATE OF`
    /// triggers fire only for the columns an UPDATE sets.)
    @Test func updatesWriteOnlyThePlayersThatChanged() async throws {
        try await withLiveServer(seed: 3) { store, url in
            let queue = try DatabaseQueue()
            let appDatabase = try AppDatabase(queue)
            try await queue.write { db in
                try db.execute(sql: """
                    CREATE TABLE playerWrite (uuid TEXT);
                    CREATE TRIGGER playerWritten AFTER UPDATE OF name, score ON player BEGIN INSERT INTO playerWrite VALUES (NEW.uuid); END;
                    """)
            }
            _ = try await appDatabase.syncClient(baseURL: url, transport: fastTransport()).sync()
            let uuid = try await serverPlayers(store)[0].uuid
            _ = try await store.update(uuid, score: 7)
            for full in [false, true] {
                let report = try await appDatabase.syncClient(baseURL: url, transport: fastTransport()).sync(full: full)
                #expect(report.counts == SyncCounts(updated: full ? 0 : 1, unchanged: full ? 3 : 0), "full: \(full)")
            }
            let written = try await queue.read { try String.fetchAll($0, sql: "SELECT uuid FROM playerWrite") }
            #expect(written == [uuid.uuidString])
            #expect(try await queue.read { try Player.filter(Player.Columns.uuid == uuid.uuidString).fetchOne($0)?.score } == 7)
        }
    }

    @Test func mergingTheSamePayloadTwiceChangesNothing() async throws {
        try await withLiveServer(seed: 20) { _, url in
            let queue = try DatabaseQueue()
            let appDatabase = try AppDatabase(queue)
            let endpoint = AppDatabase.playersEndpoint(baseURL: url)
            let response = try await fastTransport().send(CipherSync.HTTPRequest(url: endpoint))
            let store = appDatabase.syncStore()
            let page = try store.decodePage(response.body)
            let fetch = StagedFetch(kind: .snapshot, cursor: try #require(page.cursor), etag: response.headers["etag"])
            /// Stages the page alone, and merges it.
            func merge() async throws -> SyncCounts {
                try await store.withStaging { staging in
                    try await staging.stage(page, number: 1, isCatchUp: false)
                    return try await staging.merge(fetch, from: endpoint, dryRun: false)
                }
            }
            // Staging writes the database: the players' writes are counted
            // by triggers of their own.
            try await queue.write { db in
                try db.execute(sql: """
                    CREATE TABLE playerWrite (operation TEXT);
                    CREATE TRIGGER playerInserted AFTER INSERT ON player BEGIN INSERT INTO playerWrite VALUES ('insert'); END;
                    CREATE TRIGGER playerUpdated AFTER UPDATE ON player BEGIN INSERT INTO playerWrite VALUES ('update'); END;
                    CREATE TRIGGER playerDeleted AFTER DELETE ON player BEGIN INSERT INTO playerWrite VALUES ('delete'); END;
                    """)
            }
            let writes = { try await queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM playerWrite") ?? 0 } }

            #expect(try await merge() == SyncCounts(inserted: 20))
            let content = try contentChecksum(appDatabase)
            let written = try await writes()
            #expect(try await queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM playerWrite WHERE operation = 'insert'") } == 20)
            #expect(try await merge() == SyncCounts(unchanged: 20))
            #expect(try contentChecksum(appDatabase) == content)
            #expect(try await writes() == written)
        }
    }

    /// A snapshot is staged in the database, so it writes the file; what
    /// the database holds stays.
    @Test func anUnchangedReSyncChangesNothing() async throws {
        try await withLiveServer(seed: 20) { _, url in
            let database = try ClientDatabase()
            _ = try await database.client(url).sync()
            _ = try await database.client(url).sync(full: true)
            let content = try database.contentChecksum()
            let report = try await database.client(url).sync(full: true)
            #expect(report.counts == SyncCounts(unchanged: 20))
            #expect(try database.contentChecksum() == content)
        }
    }

    @Test func anUnchangedServerAnswersNotModified() async throws {
        try await withLiveServer(seed: 3) { store, url in
            let database = try ClientDatabase()
            _ = try await database.client(url).sync()
            // The first delta at the new cursor brings its ETag.
            let second = try await database.client(url).sync()
            #expect(second.counts == SyncCounts())
            #expect(!second.upToDate)
            let third = try await database.client(url).sync()
            #expect(third.upToDate)
            #expect(third.description == "up to date, cursor 3")
            // A change on the server changes the tag.
            _ = try await store.insert(name: "Arthur", score: 1)
            let fourth = try await database.client(url).sync()
            #expect(!fourth.upToDate)
            #expect(fourth.counts == SyncCounts(inserted: 1))
        }
    }

    @Test func aForgottenCursorFallsBackToASnapshotAndKeepsLocalPlayers() async throws {
        try await withLiveServer(seed: 4) { store, url in
            let database = try ClientDatabase()
            _ = try await database.client(url).sync()
            var local = Player(name: "Made here", score: 5)
            try database.appDatabase.savePlayer(&local)
            let victim = try await serverPlayers(store)[0].uuid
            _ = try await store.delete(victim)
            // The tombstone expires: the client's cursor is now too old.
            try await store.engine.purgeTombstones(olderThan: 0, now: Date().addingTimeInterval(1))

            let report = try await database.client(url).sync()
            #expect(report.kind == .snapshot)
            #expect(report.counts == SyncCounts(deleted: 1, unchanged: 3))
            let players = try database.entries()
            #expect(!players.contains { $0.uuid == victim })
            #expect(players.contains { $0.uuid == local.uuid && $0.version == nil })
            #expect(try await players.filter { $0.version != nil } == serverPlayers(store))
        }
    }

    @Test func snapshotPagesAndTheChangesMadeWhilePagingAreAppliedAsOne() async throws {
        try await withLiveServer(seed: 23, pageSize: 5) { store, url in
            let players = try await serverPlayers(store)
            let transport = HookedTransport(base: fastTransport()) { number, _ in
                // Between the second and third page: one of each change,
                // on both sides of the paging position.
                guard number == 1 else { return }
                _ = try await store.insert(uuid: UUID(uuidString: "00000000-0000-4000-8000-000000000000")!, name: "Early", score: 1)
                _ = try await store.update(players[0].uuid, score: 12345)
                _ = try await store.update(players[22].uuid, name: "Late")
                _ = try await store.delete(players[1].uuid)
                _ = try await store.delete(players[21].uuid)
            }
            let database = try ClientDatabase()
            let report = try await database.client(url, transport: transport).sync()
            #expect(report.kind == .snapshot)
            #expect(report.pages == 6)
            #expect(try database.entries() == (try await serverPlayers(store)))
            #expect(report.cursorAfter == store.cursor(try await store.currentVersion()))
        }
    }

    @Test func aFailureOnALaterPageWritesNothing() async throws {
        try await withLiveServer(seed: 12, pageSize: 5) { store, url in
            let database = try ClientDatabase()
            _ = try await database.client(url).sync()
            _ = try await store.update(try await serverPlayers(store)[0].uuid, score: 1)
            let before = try database.contentChecksum()
            let transport = HookedTransport(base: fastTransport()) { number, _ in
                if number == 1 { throw TransportError.connectionLost }
            }
            await #expect(throws: TransportError.connectionLost) {
                try await database.client(url, transport: transport).sync(full: true)
            }
            #expect(try database.contentChecksum() == before)
        }
    }

    /// A dry run stages its pages in the database, then drops them: the
    /// database's content stays.
    @Test func aDryRunReportsWithoutWriting() async throws {
        try await withLiveServer(seed: 6) { store, url in
            let database = try ClientDatabase()
            let content = try database.contentChecksum()
            let report = try await database.client(url).sync(dryRun: true)
            #expect(report.dryRun)
            #expect(report.counts == SyncCounts(inserted: 6))
            #expect(try database.contentChecksum() == content)
            #expect(try database.players().isEmpty)
            // The cursor a dry run reports is the one the sync then stores.
            let real = try await database.client(url).sync()
            #expect(report.cursorAfter == real.cursorAfter && report.cursorAfter == store.cursor(6))
        }
    }

    @Test func anObservationSeesOneValuePerSync() async throws {
        try await withLiveServer(seed: 30) { store, url in
            let database = try ClientDatabase()
            let values = Mutex<[Int]>([])
            let cancellable = ValueObservation.tracking { db in try Player.fetchCount(db) }
                .start(in: database.appDatabase.reader, scheduling: .task, onError: { _ in }, onChange: { count in values.withLock { $0.append(count) } })
            defer { cancellable.cancel() }
            // A pool delivers its initial value twice: from a reader, then
            // from the writer as it registers the observer.
            try await waitUntil("the observation sees the empty database") { values.withLock { $0 } == [0, 0] }
            _ = try await database.client(url).sync()
            // A sentinel after the sync: values come in order, so any
            // second value of the sync would arrive before the sentinel's.
            var sentinel = Player(name: "Sentinel", score: 1)
            try database.appDatabase.savePlayer(&sentinel)
            try await waitUntil("the observation sees the sentinel") { values.withLock { $0.last } == 31 }
            #expect(values.withLock { $0 } == [0, 0, 30, 31])
        }
    }

    @Test func withoutTheTokenTheServerRefusesAndNothingChanges() async throws {
        try await withLiveServer(seed: 2, token: "server-token") { _, url in
            let database = try ClientDatabase()
            let before = try database.contentChecksum()
            await #expect(throws: SyncError.unauthorized) { try await database.client(url).sync() }
            #expect(try database.contentChecksum() == before)
            let report = try await database.client(url, transport: fastTransport { $0.bearerToken = "server-token" }).sync()
            #expect(report.counts == SyncCounts(inserted: 2))
        }
    }
}
