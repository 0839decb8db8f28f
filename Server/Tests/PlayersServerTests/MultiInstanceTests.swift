import Foundation
import SyncSchema
import ServerTestSupport
import Synchronization
import TestSupport
import Testing

/// Several `players-server` processes on one PostgreSQL database, as
/// behind a load balancer: one set of players, one numbering of changes,
/// nothing acknowledged lost when an instance dies.
@Suite struct MultiInstanceTests {
    /// Starts `count` instances on the sandbox's store at once, each with
    /// `arguments`.
    func startInstances(_ count: Int, on sandbox: StoreSandbox, _ arguments: [String] = []) async throws -> [ServerProcess] {
        let environment = try sandbox.serverEnvironment
        return try await withThrowingTaskGroup(of: ServerProcess.self) { group in
            for _ in 0..<count {
                group.addTask { try await onThread { try ServerProcess(sandbox.serverArguments + arguments, environment: environment) } }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }

    /// Creates a player through `server`; its entry if the server
    /// acknowledged it (201), else nil.
    static func create(_ name: String, through server: ServerProcess) -> (uuid: UUID, version: Int64)? {
        guard let response = try? server.request("POST", "/v1/rows/player", headers: ["Content-Type": "application/json"],
                                                 body: #"{"values":{"name":"\#(name)","score":1}}"#),
              response.status == 201,
              let object = try? JSONSerialization.jsonObject(with: Data(response.body.utf8)) as? [String: Any],
              let uuid = (object["id"] as? String).flatMap(UUID.init(uuidString:)),
              let version = (object["version"] as? NSNumber)?.int64Value
        else { return nil }
        return (uuid, version)
    }

    /// Every page of a full snapshot through `server`.
    static func snapshot(through server: ServerProcess) throws -> SyncPage {
        try SyncPage.players(try server.request("GET", "/v1/sync/rows?limit=5000").body)
    }

    @Test func instancesStartingTogetherSeedOnceAndAWriteThroughOneIsReadThroughTheOtherAtOnce() async throws {
        try await StoreSandbox.with(.postgres) { sandbox in
            let servers = try await startInstances(2, on: sandbox, ["--seed", "40"])
            let snapshots = try servers.map { try Self.snapshot(through: $0) }
            #expect(snapshots.map(\.rows.count) == [40, 40])
            // One database, one history: the same cursor through both.
            #expect(Set(snapshots.map(\.cursor)).count == 1)
            #expect(snapshots.map { try? SyncCursor($0.cursor).counter } == [40, 40])

            let created = try #require(Self.create("Arthur", through: servers[0]))
            let read = try servers[1].request("GET", "/v1/rows/player/\(created.uuid.uuidString)")
            #expect(read.status == 200)
            #expect(read.body.contains("Arthur"))
            let delta = try SyncPage.players(try servers[1].request("GET", "/v1/sync/rows?since=\(snapshots[1].cursor)").body)
            #expect(delta.rows.map(\.row.id) == [created.uuid])
        }
    }

    /// Eight writers spread over two instances, a reader paging the delta
    /// through one of them meanwhile, by pages of 7, and a client watching
    /// each instance (`players sync --watch`): the versions are unique,
    /// the reader, following its cursor, sees every creation exactly once,
    /// and each watching client ends with the database's players.
    @Test func concurrentWritersOnTwoInstancesGetUniqueVersionsAndTheDeltaAndWatchersMissNone() async throws {
        try await StoreSandbox.with(.postgres) { sandbox in
            let servers = try await startInstances(2, on: sandbox)
            var clients: [(CLISandbox, WatchProcess)] = []
            for server in servers {
                let client = try CLISandbox()
                try await client.runChecked(["init"])
                clients.append((client, try WatchProcess(client, url: "http://127.0.0.1:\(server.port)")))
            }
            for (_, watcher) in clients { try watcher.waitForLines(1) }
            let writers = 8, creations = 25
            let done = TestFlag()
            let start = try Self.snapshot(through: servers[1]).cursor
            let reader = Task {
                try await onThread {
                    var versions: [Int64] = []
                    var cursor = start
                    // Pauses only when it has caught up with the writers.
                    try waitUntilBlocking("a delta reader following the writers to their end", timeout: hangGuard * 5) {
                        while true {
                            let finished = done.isSet
                            let page = try SyncPage.players(try servers[1].request("GET", "/v1/sync/rows?since=\(cursor)&limit=7").body)
                            versions += page.rows.map(\.version)
                            cursor = page.cursor
                            if page.isComplete, finished { return true }
                            if page.rows.isEmpty { return false }
                        }
                    }
                    return versions
                }
            }
            let acknowledged = try await withThrowingTaskGroup(of: [Int64].self) { group in
                for writer in 0..<writers {
                    group.addTask {
                        try await onThread {
                            (0..<creations).compactMap { Self.create("W\(writer)-\($0)", through: servers[writer % 2])?.version }
                        }
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            done.set()
            let seen = try await reader.value
            let total = Int64(writers * creations)
            #expect(acknowledged.sorted() == Array(1...total))
            #expect(seen == Array(1...total))
            #expect(try await sandbox.storeProblems() == [])

            let database = Set(try Self.snapshot(through: servers[0]).rows.map(\.row.id.uuidString))
            #expect(database.count == writers * creations)
            for (client, watcher) in clients {
                // Merged up to the last change: its line ends with the cursor.
                try await waitUntil("players sync --watch to merge up to cursor \(total)") {
                    watcher.lines.last?.hasSuffix("cursor \(total).") == true
                }
                #expect(try watcher.stop(SIGINT) == 0)
                let listing = try await client.run(["list", "--json"])
                let listed = try jsonLines(listing.output)
                #expect(Set(listed.compactMap { $0["uuid"] as? String }) == database)
            }
        }
    }

    /// An instance killed with SIGKILL while it writes: every creation it
    /// acknowledged is served by the other one.
    @Test func anInstanceKilledWhileWritingLosesNothingItAcknowledged() async throws {
        try await StoreSandbox.with(.postgres) { sandbox in
            let servers = try await startInstances(2, on: sandbox)
            let acknowledged = Mutex<[UUID]>([])
            let writing = Task {
                try await onThread {
                    for index in 0..<100_000 {
                        guard let entry = Self.create("K\(index)", through: servers[0]) else { return }
                        acknowledged.withLock { $0.append(entry.uuid) }
                    }
                }
            }
            // Killed in the middle of its writes, whatever the machine's load.
            try await waitUntil("30 creations acknowledged by the first instance") { acknowledged.withLock { $0.count } >= 30 }
            #expect(try servers[0].stop(SIGKILL) == 128 + SIGKILL)
            try await writing.value
            let written = acknowledged.withLock { $0 }
            #expect(written.count >= 30)
            let served = Set(try Self.snapshot(through: servers[1]).rows.map(\.row.id))
            #expect(Set(written).isSubset(of: served))
            // At most the creation in flight at the kill, unacknowledged.
            #expect(served.count <= written.count + 1)
        }
    }
}
