import CipherDB
import CipherSync
import Foundation
import Players
import PlayersSync

/// The peak resident memory of a sync of a large snapshot into an empty
/// database, raw key: the real client (`SyncClient` and the sync
/// engine's store, staging in the database included) against a server in
/// memory that makes each page of 500 players when asked
/// (``GeneratedSyncSnapshot``). It
/// runs in a child process (this executable with `--sync-memory`), so that
/// the peak is the sync's alone and not that of the benchmarks before it.
struct MemoryWorkload {
    let folder: URL
    let playerCount: Int

    /// The name `--workload` filters on.
    static let name = "memory: sync a snapshot"
    /// Players per page: the server's default.
    static let pageSize = 500

    /// What the child reports.
    struct Result: Codable, Sendable {
        var players: Int
        var pages: Int
        /// The bodies of every page together.
        var payloadBytes: Int
        /// The peak before the sync: the process with the database open.
        var residentBeforeSyncBytes: Int
        var peakResidentBytes: Int
        var seconds: Double

        var summary: String {
            let megabytes = { (bytes: Int) in String(format: "%.0f MB", Double(bytes) / 1e6) }
            return "sync a \(players)-player snapshot in \(pages) pages [raw key]: peak resident memory \(megabytes(peakResidentBytes)),"
                + " for a \(megabytes(payloadBytes)) payload (\(megabytes(residentBeforeSyncBytes)) before the sync);"
                + " \(Harness.format(seconds))"
        }
    }

    /// Runs the child, returns what it measured.
    func run() throws -> Result {
        try JSONDecoder().decode(Result.self, from: MeasuredSync.child(["--sync-memory", folder.path, "--memory-players", "\(playerCount)"]))
    }

    /// The child: syncs `playerCount` players into a new database in
    /// `folder`, and prints its peak memory as JSON.
    static func measureChild(folder: URL, playerCount: Int) async throws {
        let fixtures = try PlayersFixtures(folder: folder, mode: .rawKey, name: "memory")
        let appDatabase = try AppDatabase(DatabaseQueue(path: fixtures.empty, configuration: fixtures.configuration))
        let transport = GeneratedSyncSnapshot.players(count: playerCount, pageSize: pageSize)
        let client = appDatabase.syncClient(baseURL: URL(string: "http://127.0.0.1:8080")!, transport: transport)
        let sync = try await MeasuredSync.run(client, rows: playerCount, pageSize: pageSize)
        try SyncWorkloads.check(sync.report.counts, SyncCounts(inserted: playerCount))
        // The last page's digest was compared: a repair would be a second
        // snapshot, measured as if it were one.
        if let repaired = sync.report.repaired {
            throw BenchError("the synced players differed from the snapshot's digest (\(repaired.local); \(repaired.server))")
        }
        let result = Result(
            players: sync.report.inserted, pages: sync.report.pages, payloadBytes: sync.report.bytesReceived,
            residentBeforeSyncBytes: sync.residentBeforeSyncBytes, peakResidentBytes: sync.peakResidentBytes, seconds: sync.seconds)
        print(String(decoding: try JSONEncoder().encode(result), as: UTF8.self))
    }
}
