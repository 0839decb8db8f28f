import CipherDB
import Foundation
import Players
import PlayersProtocol

/// The peak resident memory of a sync merging a large snapshot into an
/// empty database, raw key. It runs in a child process (this executable
/// with `--merge-memory`), so that the peak is the merge's alone and not
/// that of the benchmarks before it or of writing the payload.
struct MemoryWorkload {
    let folder: URL
    let playerCount: Int

    /// The name `--workload` filters on.
    static let name = "memory: merge a snapshot"

    /// What the child reports.
    struct Result: Codable, Sendable {
        var players: Int
        var payloadBytes: Int
        /// The peak before decoding: the process with the payload read.
        var residentBeforeDecodeBytes: Int
        var peakResidentBytes: Int
        var seconds: Double

        var summary: String {
            let megabytes = { (bytes: Int) in String(format: "%.0f MB", Double(bytes) / 1e6) }
            return "merge a \(players)-player snapshot [raw key]: peak resident memory \(megabytes(peakResidentBytes)), "
                + String(format: "%.1fx", Double(peakResidentBytes) / Double(payloadBytes))
                + " the \(megabytes(payloadBytes)) payload (\(megabytes(residentBeforeDecodeBytes)) with the payload read,"
                + " before decoding); \(Harness.format(seconds)) with decoding"
        }
    }

    /// Writes the payload, runs the child, returns what it measured.
    func run() throws -> Result {
        let payloadURL = folder.appendingPathComponent("memory-snapshot.json")
        try Self.writeSnapshot(count: playerCount, to: payloadURL)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = ["--merge-memory", payloadURL.path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchError("the memory benchmark's child process failed with status \(process.terminationStatus)")
        }
        return try JSONDecoder().decode(Result.self, from: data)
    }

    /// The child: reads the payload as a sync receives it, decodes and
    /// merges it into a new database, and prints its peak memory as JSON.
    static func measureChild(payloadPath: String) async throws {
        let start = ContinuousClock.now
        let data = try Data(contentsOf: URL(fileURLWithPath: payloadPath))
        let residentBeforeDecode = try peakResidentBytes()
        let folder = URL(fileURLWithPath: payloadPath).deletingLastPathComponent()
        let fixtures = try PlayersFixtures(folder: folder, mode: .rawKey, name: "memory")
        let counts = try await SyncWorkloads(folder: folder, playerCount: 0).merge(data, into: fixtures.empty, fixtures)
        let duration = ContinuousClock.now - start
        let result = Result(
            players: counts.inserted, payloadBytes: data.count, residentBeforeDecodeBytes: residentBeforeDecode,
            peakResidentBytes: try peakResidentBytes(),
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

    /// A snapshot of `count` players, written in slices so that writing
    /// it does not itself need the memory being measured.
    static func writeSnapshot(count: Int, to url: URL) throws {
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw BenchError("cannot create \(url.path)")
        }
        let file = try FileHandle(forWritingTo: url)
        defer { try? file.close() }
        // The encoder's own output for an empty snapshot, split where the
        // players go: the rest of the message stays the encoder's.
        let empty = String(decoding: try PlayersPayload(kind: .snapshot, cursor: "\(count)", players: []).jsonData(), as: UTF8.self)
        let parts = empty.components(separatedBy: "\"players\":[]")
        guard parts.count == 2 else { throw BenchError("unexpected snapshot JSON: \(empty)") }
        try file.write(contentsOf: Data((parts[0] + "\"players\":[").utf8))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let slice = 50_000
        for start in stride(from: 0, to: count, by: slice) {
            let entries = (start..<min(start + slice, count)).map { index in
                PlayersPayload.PlayerEntry(uuid: UUID(), name: "Player \(index)", score: index % 1_000_000, version: Int64(index + 1))
            }
            var json = try encoder.encode(entries)
            json.removeFirst()
            json.removeLast()
            if start > 0 { try file.write(contentsOf: Data(",".utf8)) }
            try file.write(contentsOf: json)
        }
        try file.write(contentsOf: Data(("]" + parts[1]).utf8))
    }
}
