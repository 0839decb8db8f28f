import CipherDB
import CipherSync
import Foundation
import Players
import PlayersShared
import PlayersSync
import ServerTestSupport
import Synchronization
import TestSupport
import Testing

/// The staging of a sync, in the database's own `sync_stage_player`:
/// emptied however the sync ends; and the guarantees that staging must
/// keep (nothing merged before every page is in, the same errors and
/// counts).
@Suite struct SyncStagingTests {
    /// The rows and tombstones staged in `appDatabase`.
    static func stagedCount(_ appDatabase: AppDatabase) throws -> Int {
        try appDatabase.reader.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sync_stage_player") ?? 0 }
    }

    /// How a sync ends.
    enum Ending: String, CaseIterable, Sendable {
        case merged, failedPage, failedMerge
    }

    @Test(arguments: Ending.allCases)
    func theStagingIsEmptiedWhenTheSyncEnds(_ ending: Ending) async throws {
        struct MergeFailure: Error {}
        try await withLiveServer(seed: 20, pageSize: 5) { _, url in
            let database = try ClientDatabase()
            // Two pages staged: the answer to the third request is not.
            let stagedDuringTheSync = Mutex<Int?>(nil)
            let transport = HookedTransport(base: fastTransport()) { number, _ in
                guard number == 2 else { return }
                let staged = try Self.stagedCount(database.appDatabase)
                stagedDuringTheSync.withLock { $0 = staged }
                if ending == .failedPage { throw TransportError.connectionLost }
            }
            let client = database.appDatabase.syncClient(baseURL: url, transport: transport, beforeCommit: { _ in
                if ending == .failedMerge { throw MergeFailure() }
            })
            do {
                _ = try await client.sync()
                #expect(ending == .merged)
            } catch {
                #expect(ending != .merged, "\(error)")
            }
            #expect(stagedDuringTheSync.withLock { $0 } == 10)
            #expect(try Self.stagedCount(database.appDatabase) == 0)
            #expect(try database.players().count == (ending == .merged ? 20 : 0))
        }
    }

    /// An answer `304 Not Modified` brings no page: the sync begins no
    /// staging, and writes nothing at all.
    @Test func anAnswerWithNoPageMakesNoStaging() async throws {
        try await withLiveServer(seed: 3) { _, url in
            let database = try ClientDatabase()
            // The first delta at the new cursor brings its ETag.
            for _ in 0..<2 { _ = try await database.client(url).sync() }
            let bytes = database.fileBytes()
            let report = try await database.client(url).sync()
            #expect(report.upToDate)
            #expect(database.fileBytes() == bytes)
        }
    }

    @Test func aBadPageAfterManyStagedOnesChangesNeitherTheDatabaseNorTheCursor() async throws {
        let goodPages = 40
        let uuids = (0..<goodPages * 10).map { _ in UUID().uuidString }
        let server = try ScriptedHTTPServer { request, _ in
            let page = request.path.split(separator: "=").last.flatMap { Int($0) } ?? 0
            guard page < goodPages else {
                return .json(SyncFailureTests.BadServer.page(SyncFailureTests.BadServer.player(uuid: "not-a-uuid")))
            }
            let players = (0..<10).map { SyncFailureTests.BadServer.player(uuid: uuids[page * 10 + $0], name: #""Player \#(page * 10 + $0)""#) }
            return .json(SyncFailureTests.BadServer.page(
                players.joined(separator: ","), extra: #""cursor":"\#(ScriptedCursor.at(30))","next":"/v1/sync/rows?tables=player&page=\#(page + 1)","#,
                complete: false))
        }
        defer { server.stop() }
        let (database, before) = try await SyncLimitTests().syncedDatabase()
        let client = database.client(URL(string: server.baseURL)!)
        await #expect(throws: SyncPayloadError(page: goodPages + 1, path: "$.rows[0].id", "not a UUID")) {
            try await client.sync(full: true)
        }
        #expect(server.requests.count == goodPages + 1)
        #expect(try database.contentChecksum() == before)
        #expect(try Self.stagedCount(database.appDatabase) == 0)
    }

    @Test func aSnapshotThatListsAUUIDOnTwoPagesIsRefusedAsBefore() async throws {
        let uuid = SyncFailureTests.BadServer.uuid
        let server = try ScriptedHTTPServer { request, _ in
            if request.path.contains("since=") {
                return .json(ScriptedPage.json(kind: "delta", cursor: ScriptedCursor.at(30), rows: []))
            }
            // The row again on the second page, with other values.
            return request.path.contains("page=2")
                ? .json(SyncFailureTests.BadServer.page(SyncFailureTests.BadServer.player(uuid: SyncFailureTests.BadServer.otherUUID) + ","
                    + SyncFailureTests.BadServer.player(uuid: uuid, name: #""Poisoned""#, score: "424242")))
                : .json(SyncFailureTests.BadServer.page(
                    SyncFailureTests.BadServer.player(uuid: uuid), extra: #""cursor":"\#(ScriptedCursor.at(30))","next":"/v1/sync/rows?tables=player&page=2","#,
                    complete: false))
        }
        defer { server.stop() }
        let (database, before) = try await SyncLimitTests().syncedDatabase()
        do {
            _ = try await database.client(URL(string: server.baseURL)!).sync(full: true)
            Issue.record("the sync succeeded")
        } catch {
            #expect(error as? SyncPayloadError == SyncPayloadError(page: 2, path: "$.rows[1].id", "\(uuid) appears on an earlier page of the snapshot"))
            #expect("\(error)" == "the server sent an invalid payload (page 2, $.rows[1].id: \(uuid) appears on an earlier page of the snapshot): nothing was written")
        }
        #expect(try database.contentChecksum() == before)
    }

    /// A dry run stages its pages in the database, then drops them: the
    /// database's content stays.
    @Test func aDryRunCountsWhatTheSyncThenDoesAndChangesNothing() async throws {
        try await withLiveServer(seed: 12) { store, url in
            let database = try ClientDatabase()
            _ = try await database.client(url).sync()
            var local = Player(name: "Made here", score: 5)
            try database.appDatabase.savePlayer(&local)
            let players = try await serverPlayers(store)
            _ = try await store.insert(name: "Zaphod", score: 42)
            _ = try await store.update(players[0].uuid, score: 999)
            _ = try await store.delete(players[1].uuid)
            for full in [false, true] {
                let content = try database.contentChecksum()
                let dryRun = try await database.client(url).sync(full: full, dryRun: true)
                #expect(try database.contentChecksum() == content, "full: \(full)")
                #expect(dryRun.counts == SyncCounts(inserted: 1, updated: 1, deleted: 1, unchanged: full ? 10 : 0), "full: \(full)")
            }
            let report = try await database.client(url).sync(full: true)
            #expect(report.counts == SyncCounts(inserted: 1, updated: 1, deleted: 1, unchanged: 10))
        }
    }

    @Test func aPlayerDeletedWhileASnapshotIsPagedCountsAsOneDeletion() async throws {
        try await withLiveServer(seed: 12, pageSize: 5) { store, url in
            let database = try ClientDatabase()
            _ = try await database.client(url).sync()
            let first = try await serverPlayers(store)[0].uuid
            // On the first page of the snapshot, then in its catch-up delta
            // as a tombstone.
            let transport = HookedTransport(base: fastTransport()) { number, _ in
                if number == 1 { _ = try await store.delete(first) }
            }
            let report = try await database.client(url, transport: transport).sync(full: true)
            #expect(report.counts == SyncCounts(deleted: 1, unchanged: 11))
            #expect(try database.entries() == (try await serverPlayers(store)))
        }
    }
}
