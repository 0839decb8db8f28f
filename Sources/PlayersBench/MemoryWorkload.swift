import CipherDB
import CipherSync
import Foundation
import Players
import PlayersSync

/// The peak resident memory of a sync of a large snapshot into an empty
/// database, raw key: the real client (`SyncClient` and the players'
/// store, staging included) against a server in memory that makes each
/// page of 500 players when asked (``GeneratedSnapshotTransport``). It
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
        try JSONDecoder().decode(Result.self, from: Self.runChild(["--sync-memory", folder.path, "--memory-players", "\(playerCount)"]))
    }

    /// Runs this executable with `arguments` in a child process, and
    /// returns what it printed.
    static func runChild(_ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchError("the memory benchmark's child process failed with status \(process.terminationStatus)")
        }
        return data
    }

    /// The child: syncs `playerCount` players into a new database in
    /// `folder` (its staging database there too), and prints its peak
    /// memory as JSON.
    static func measureChild(folder: URL, playerCount: Int) async throws {
        let fixtures = try PlayersFixtures(folder: folder, mode: .rawKey, name: "memory")
        let appDatabase = try AppDatabase(DatabaseQueue(path: fixtures.empty, configuration: fixtures.configuration))
        let residentBeforeSync = try peakResidentBytes()
        let start = ContinuousClock.now
        let transport = GeneratedSnapshotTransport(playerCount: playerCount, pageSize: pageSize)
        var client = appDatabase.syncClient(baseURL: URL(string: "http://127.0.0.1:8080")!, transport: transport, stagingDirectory: folder)
        // The bench's sizes, not a hostile server's.
        client.maximumPages = playerCount / pageSize + 2
        client.maximumBytes = Int.max
        let report = try await client.sync()
        let duration = ContinuousClock.now - start
        try SyncWorkloads.check(report.counts, SyncCounts(inserted: playerCount))
        let result = Result(
            players: report.inserted, pages: report.pages, payloadBytes: report.bytesReceived,
            residentBeforeSyncBytes: residentBeforeSync, peakResidentBytes: try peakResidentBytes(),
            seconds: Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
        print(String(decoding: try JSONEncoder().encode(result), as: UTF8.self))
    }

    /// The high-water mark of the resident set (`VmHWM`), in bytes.
    static func peakResidentBytes() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kilobytes = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        else { throw BenchError("/proc/self/status has no VmHWM line") }
        return kilobytes * 1024
    }
}
