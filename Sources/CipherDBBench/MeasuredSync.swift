import CipherSync
import Foundation

/// A sync that a memory workload's child process measures: its report,
/// the process's peak resident memory before and after it, and its time.
struct MeasuredSync {
    var report: SyncReport
    var residentBeforeSyncBytes: Int
    var peakResidentBytes: Int
    var seconds: Double

    /// Runs `client`'s sync of `rows` rows in pages of `pageSize`, with
    /// the benchmark's sizes as its limits (not a hostile server's).
    static func run<Store: SyncStore>(_ client: SyncClient<Store>, rows: Int, pageSize: Int) async throws -> MeasuredSync {
        var client = client
        client.maximumPages = rows / pageSize + 2
        client.maximumBytes = Int.max
        let residentBefore = try peakResidentBytes()
        let start = ContinuousClock.now
        let report = try await client.sync()
        let duration = ContinuousClock.now - start
        return MeasuredSync(report: report, residentBeforeSyncBytes: residentBefore, peakResidentBytes: try peakResidentBytes(),
                            seconds: Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18)
    }

    /// The high-water mark of the resident set (`VmHWM`), in bytes.
    static func peakResidentBytes() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kilobytes = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        else { throw BenchError("/proc/self/status has no VmHWM line") }
        return kilobytes * 1024
    }

    /// Runs this executable with `arguments` in a child process, and
    /// returns what it printed: the measure of one workload, alone in its
    /// process.
    static func child(_ arguments: [String]) throws -> Data {
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
}
