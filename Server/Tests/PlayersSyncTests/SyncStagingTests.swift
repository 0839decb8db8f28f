import CipherDB
import CipherSync
import Foundation
import Players
import PlayersProtocol
import PlayersSync
import Synchronization
import TestSupport
import Testing

/// The staging database of a sync: encrypted, private, removed however
/// the sync ends; and the guarantees that staging must keep (nothing
/// written before the merge, the same errors and counts).
@Suite struct SyncStagingTests {
    /// The entries of a folder.
    static func stagingEntries(_ folder: TemporaryFolder) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    }

    /// The staging database file of the sync under way in `folder`.
    static func stagingFile(_ folder: TemporaryFolder) throws -> URL {
        let entries = stagingEntries(folder)
        guard entries.count == 1, let entry = entries.first else {
            throw TestFailure("expected one staging folder in \(folder.path), found \(entries)")
        }
        return folder.url(entry).appendingPathComponent("staging.db")
    }

    @Test func theStagingFileIsPrivateAndEncrypted() async throws {
        let name = "Zaphod Beeblebrox"
        try await withLiveServer(seed: 30, pageSize: 5) { store, url in
            // First in uuid order: on the first page.
            _ = try await store.insert(uuid: UUID(uuidString: "00000000-0000-4000-8000-000000000001")!, name: name, score: 42)
            let staging = try TemporaryFolder()
            let seen = Mutex<(bytes: Data, mode: Int, folderMode: Int)?>(nil)
            let transport = HookedTransport(base: fastTransport()) { number, _ in
                // Two pages staged: the answer to the third request is not.
                guard number == 2 else { return }
                let file = try Self.stagingFile(staging)
                let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
                let folderAttributes = try FileManager.default.attributesOfItem(atPath: file.deletingLastPathComponent().path)
                seen.withLock { $0 = (try! Data(contentsOf: file), attributes[.posixPermissions] as! Int, folderAttributes[.posixPermissions] as! Int) }
            }
            let database = try ClientDatabase()
            _ = try await database.appDatabase.syncClient(baseURL: url, transport: transport, stagingDirectory: staging.url).sync()
            let (bytes, mode, folderMode) = try #require(seen.withLock { $0 })
            // More than the two pages of an empty table: the players are in it.
            #expect(bytes.count > 2048)
            #expect(bytes.range(of: Data(name.utf8)) == nil)
            #expect(bytes.range(of: Data("SQLite format 3".utf8)) == nil)
            #expect(mode == 0o600)
            #expect(folderMode == 0o700)
            #expect(try database.players().contains { $0.name == name })
        }
    }

    /// How a sync ends.
    enum Ending: String, CaseIterable, Sendable {
        case merged, failedPage, failedMerge
    }

    @Test(arguments: Ending.allCases)
    func theStagingFolderIsRemovedWhenTheSyncEnds(_ ending: Ending) async throws {
        struct MergeFailure: Error {}
        try await withLiveServer(seed: 20, pageSize: 5) { _, url in
            let staging = try TemporaryFolder()
            let stagedDuringTheSync = Mutex(false)
            let transport = HookedTransport(base: fastTransport()) { number, _ in
                guard number == 2 else { return }
                stagedDuringTheSync.withLock { $0 = (try? Self.stagingFile(staging)).map { FileManager.default.fileExists(atPath: $0.path) } ?? false }
                if ending == .failedPage { throw TransportError.connectionLost }
            }
            let database = try ClientDatabase()
            let client = database.appDatabase.syncClient(baseURL: url, transport: transport, stagingDirectory: staging.url) { _ in
                if ending == .failedMerge { throw MergeFailure() }
            }
            do {
                _ = try await client.sync()
                #expect(ending == .merged)
            } catch {
                #expect(ending != .merged, "\(error)")
            }
            #expect(stagedDuringTheSync.withLock { $0 })
            #expect(Self.stagingEntries(staging) == [])
            #expect(try database.players().count == (ending == .merged ? 20 : 0))
        }
    }

    /// A sync killed mid-way (kill -9, Ctrl-C) leaves its folder: the next
    /// sync deletes it, because no process holds its lock, and leaves the
    /// folder of a sync still running (its lock held) and a folder it
    /// cannot tell (no lock file) alone.
    @Test func theNextSyncDeletesTheFoldersOfSyncsThatDied() async throws {
        try await withLiveServer(seed: 5) { _, url in
            let staging = try TemporaryFolder()
            for name in ["players-sync-dead01", "players-sync-live01", "players-sync-nolock"] {
                try FileManager.default.createDirectory(at: staging.url(name), withIntermediateDirectories: false)
                try Data(count: 4096).write(to: staging.url(name).appendingPathComponent("staging.db"))
            }
            for name in ["players-sync-dead01", "players-sync-live01"] {
                try Data().write(to: staging.url(name).appendingPathComponent("owner.lock"))
            }
            // The running sync's lock, as its process holds it.
            let held = open(staging.url("players-sync-live01").appendingPathComponent("owner.lock").path, O_RDWR)
            try #require(held >= 0 && flock(held, LOCK_EX | LOCK_NB) == 0)
            defer { close(held) }

            let database = try ClientDatabase()
            _ = try await database.appDatabase.syncClient(baseURL: url, transport: fastTransport(), stagingDirectory: staging.url).sync()
            #expect(Self.stagingEntries(staging).sorted() == ["players-sync-live01", "players-sync-nolock"])
            #expect(try database.players().count == 5)
        }
    }

    @Test func aNewSyncsFolderIsNeverTakenForAnAbandonedOne() async throws {
        // Each new staging cleans up the folder first: two loops of them
        // race, so that one's cleanup meets the other's folder as it is
        // being made (the lock file created but not yet locked, before).
        let staging = try TemporaryFolder()
        let database = try ClientDatabase()
        let store = PlayersSyncStore(database.appDatabase, stagingDirectory: staging.url)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<2 {
                group.addTask {
                    for _ in 0..<500 {
                        let area = try await store.beginStaging()
                        try await area.stage(PlayersPayload(kind: .delta, cursor: ScriptedCursor.at(1), players: []), number: 1, isCatchUp: false)
                        await area.discard()
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(Self.stagingEntries(staging).isEmpty)
    }

    @Test func anAnswerWithNoPageMakesNoStaging() async throws {
        try await withLiveServer(seed: 3) { _, url in
            let database = try ClientDatabase()
            // The first delta at the new cursor brings its ETag.
            for _ in 0..<2 { _ = try await database.client(url).sync() }
            // A file where the staging folder would go: making one fails.
            let folder = try TemporaryFolder()
            try Data().write(to: folder.url("not-a-folder"))
            let store = PlayersSyncStore(database.appDatabase, stagingDirectory: folder.url("not-a-folder"))
            let client = SyncClient(transport: fastTransport(), endpoint: url.appendingPathComponent("v1/players"), store: store)
            let report = try await client.sync()
            #expect(report.upToDate)
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
            return .json(SyncFailureTests.BadServer.page(players.joined(separator: ","), extra: #""cursor":"\#(ScriptedCursor.at(30))","next":"/v1/players?page=\#(page + 1)","#, complete: false))
        }
        defer { server.stop() }
        let (database, before) = try await SyncLimitTests().syncedDatabase()
        let staging = try TemporaryFolder()
        let client = database.appDatabase.syncClient(baseURL: URL(string: server.baseURL)!, transport: fastTransport(), stagingDirectory: staging.url)
        await #expect(throws: SyncPayloadError(page: goodPages + 1, path: "$.players[0].uuid", "not a UUID")) {
            try await client.sync(full: true)
        }
        #expect(server.requests.count == goodPages + 1)
        #expect(try database.contentChecksum() == before)
        #expect(Self.stagingEntries(staging) == [])
    }

    @Test func aSnapshotThatListsAUUIDOnTwoPagesIsRefusedAsBefore() async throws {
        let uuid = SyncFailureTests.BadServer.uuid
        let server = try ScriptedHTTPServer { request, _ in
            if request.path.contains("since=") {
                return .json(#"{"protocolVersion":1,"kind":"delta","complete":true,"cursor":"\#(ScriptedCursor.at(30))","players":[],"tombstones":[]}"#)
            }
            return request.path.contains("page=2")
                ? .json(SyncFailureTests.BadServer.page(SyncFailureTests.BadServer.player(uuid: SyncFailureTests.BadServer.otherUUID) + "," + SyncFailureTests.BadServer.player(uuid: uuid)))
                : .json(SyncFailureTests.BadServer.page(SyncFailureTests.BadServer.player(uuid: uuid), extra: #""cursor":"\#(ScriptedCursor.at(30))","next":"/v1/players?page=2","#, complete: false))
        }
        defer { server.stop() }
        let (database, before) = try await SyncLimitTests().syncedDatabase()
        do {
            _ = try await database.client(URL(string: server.baseURL)!).sync(full: true)
            Issue.record("the sync succeeded")
        } catch {
            #expect(error as? SyncPayloadError == SyncPayloadError(page: 2, path: "$.players[1].uuid", "\(uuid) appears on an earlier page of the snapshot"))
            #expect("\(error)" == "the server sent an invalid payload (page 2, $.players[1].uuid: \(uuid) appears on an earlier page of the snapshot): nothing was written")
        }
        #expect(try database.contentChecksum() == before)
    }

    @Test func aDryRunCountsWhatTheSyncThenDoesAndWritesNoByte() async throws {
        try await withLiveServer(seed: 12) { store, url in
            let database = try ClientDatabase()
            _ = try await database.client(url).sync()
            var local = Player(name: "Made here", score: 5)
            try database.appDatabase.savePlayer(&local)
            let players = try await serverPlayers(store)
            _ = try await store.insert(name: "Zaphod", score: 42)
            _ = try await store.update(players[0].uuid, name: nil, score: 999)
            _ = try await store.delete(players[1].uuid)
            for full in [false, true] {
                let bytes = database.fileBytes()
                let dryRun = try await database.client(url).sync(full: full, dryRun: true)
                #expect(database.fileBytes() == bytes, "full: \(full)")
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
            #expect(try await entries(database.players()) == serverPlayers(store))
        }
    }
}
