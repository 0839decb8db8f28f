import CipherDB
import CipherSync
import Foundation
import Players
import PlayersSync
import ServerTestSupport
import SyncEngine
import Synchronization
import TestSupport
import Testing

/// The replicator (``CipherSync/SyncReplicator``) of a players database in
/// this process, against a `players-server` process on each store: its
/// status through every state, and a local change that reaches another
/// replicator's device through the commit alone.
@Suite struct SyncReplicatorTests {
    /// A players database in a folder of its own, removed at the end.
    final class Device: Sendable {
        let folder: TemporaryFolder
        let appDatabase: AppDatabase
        let key = Data((0..<32).map { _ in UInt8.random(in: 0...255) })

        init() throws {
            folder = try TemporaryFolder()
            appDatabase = try AppDatabase.open(at: folder.url("players.db"), key: .rawKey { [key] in key })
        }

        /// Runs SQL on a connection of its own, as another program on the
        /// file would (the engine's triggers record it).
        func writeAsAnotherProgram(_ sql: String, arguments: StatementArguments = []) throws -> Int64 {
            var configuration = Configuration()
            DatabaseKeySource.rawKey { [key] in key }.configure(&configuration)
            let queue = try DatabaseQueue(path: folder.path("players.db"), configuration: AppDatabase.makeConfiguration(configuration))
            defer { try? queue.close() }
            return try queue.write { db in
                try db.execute(sql: sql, arguments: arguments)
                return db.lastInsertedRowID
            }
        }

        func replicator(_ url: URL, maximumBackOff: Duration = .seconds(30)) -> SyncReplicator {
            SyncReplicator(client: appDatabase.syncClient(baseURL: url, transport: fastTransport()),
                           configuration: SyncReplicator.Configuration(maximumBackOff: maximumBackOff,
                                                                       checkBeforePush: AppDatabase.checkPendingPlayers))
        }

        @discardableResult
        func add(_ name: String, score: Int = 10) throws -> Player {
            var player = Player(name: name, score: score)
            try appDatabase.savePlayer(&player)
            return player
        }

        func names() throws -> Set<String> {
            try appDatabase.reader.read { db in Set(try String.fetchAll(db, sql: "SELECT name FROM player")) }
        }
    }

    /// The kinds of a status stream's statuses, as they come (a kind
    /// repeated at once counted once). `Sendable` through its mutex.
    final class SeenActivities: Sendable {
        private final class Kinds: Sendable {
            let list = Mutex<[SyncActivity.Kind]>([])
        }

        private let seen = Kinds()
        private let task: Task<Void, Never>

        init(_ statuses: AsyncStream<SyncStatus>) {
            let seen = seen
            task = Task {
                for await status in statuses {
                    seen.list.withLock { kinds in if kinds.last != status.activity.kind { kinds.append(status.activity.kind) } }
                }
            }
        }

        /// The kinds so far.
        var current: [SyncActivity.Kind] { seen.list.withLock { $0 } }

        /// Once the stream has ended.
        var kinds: [SyncActivity.Kind] { get async { await task.value; return current } }
    }

    /// A `players-server` process on `kind` of store, for `body`, with its URL.
    func withServer(_ kind: StoreKind, _ body: (ServerProcess, URL) async throws -> Void) async throws {
        try await StoreSandbox.with(kind) { sandbox in
            let server = try ServerProcess(sandbox.serverArguments, environment: try sandbox.serverEnvironment)
            try await body(server, URL(string: "http://127.0.0.1:\(server.port)")!)
        }
    }

    /// Connecting, pushing the device's player, pulling the other's, up
    /// to date; failed on a player the rules refuse, which another program
    /// wrote on the file (told as a refused change), up to date again once
    /// it is deleted; offline when the server stops; idle when stopped.
    @Test(.hangGuard, arguments: StoreKind.allCases)
    func theStatusGoesThroughEveryState(_ kind: StoreKind) async throws {
        try await withServer(kind) { server, url in
            let (other, device) = (try Device(), try Device())
            try other.add("Arthur")
            _ = try await other.appDatabase.syncClient(baseURL: url, transport: fastTransport()).syncPlayers()
            try device.add("Barbara")
            // A back-off of milliseconds: the refused player is retried at once.
            let replicator = device.replicator(url, maximumBackOff: .milliseconds(50))
            let seen = SeenActivities(replicator.statuses())
            let events = replicator.events()
            replicator.start()
            try await waitUntil("up to date") { replicator.status.activity.kind == .upToDate }
            #expect(try device.names() == ["Arthur", "Barbara"])
            #expect(replicator.status.hasSynced)

            let refused = try device.writeAsAnotherProgram("INSERT INTO player (uuid, name, score) VALUES (?, '', 1)",
                                                           arguments: [UUID().uuidString])
            try await waitUntil("the refused change tried twice") { seen.current.filter { $0 == .failed }.count >= 2 }
            guard case .failed(.changeRefused) = replicator.status.activity else {
                Issue.record("\(replicator.status)")
                return
            }
            #expect(replicator.status.retryingIn != nil)
            try device.appDatabase.deletePlayers(exactly: [refused])
            try await waitUntil("up to date again") { replicator.status.activity.kind == .upToDate }

            #expect(try server.stop() == 0)
            try await waitUntil("offline") { replicator.status.activity.kind == .offline }
            await replicator.stop()

            let kinds = await seen.kinds
            #expect(Set(kinds) == Set(SyncActivity.Kind.allCases), "\(kinds)")
            #expect(Array(kinds.prefix(5)) == [.idle, .connecting, .pushing, .pulling, .upToDate], "\(kinds)")
            #expect(kinds.last == .idle)
            // Told once, however many times its retries failed.
            var refusedRows = 0
            for await event in events {
                if case .changeRefused(let row, _) = event, row.table == "player" { refusedRows += 1 }
            }
            #expect(refusedRows == 1)
        }
    }

    /// Two devices' replicators on one server: a player saved on the
    /// first (a commit of its own connection) ends its long-poll through
    /// the commit, is pushed, and the second's long-poll brings it. The
    /// time it took is printed; the guard is the long-poll's wait.
    @Test(.hangGuard, arguments: StoreKind.allCases)
    func aLocalCommitReachesAnotherReplicatorsDeviceWithoutWaitingForTheLongPoll(_ kind: StoreKind) async throws {
        try await withServer(kind) { server, url in
            let (first, second) = (try Device(), try Device())
            let (firstReplicator, secondReplicator) = (first.replicator(url), second.replicator(url))
            for replicator in [firstReplicator, secondReplicator] { replicator.start() }
            // Not a blocking wait: the replicators' tasks need the threads.
            try await waitUntil("both long-polls held") { try server.metric("players_server_long_polls_open") == 2 }
            let clock = ContinuousClock()
            let start = clock.now
            try first.add("Zoé")
            try await waitUntil("the player on the second device", timeout: SyncWatchTests.underTheLongPollsWait) {
                try second.names().contains("Zoé")
            }
            print("\(kind): a player saved on one device reached the other in \(start.duration(to: clock.now))")
            for replicator in [firstReplicator, secondReplicator] {
                try await waitUntil("up to date") { replicator.status.activity.kind == .upToDate }
                await replicator.stop()
            }
            #expect(try server.stop() == 0)
        }
    }
}
