import CipherDB
import Foundation

/// How a benchmark database is keyed: the cost of encryption is the
/// difference between these modes.
enum EncryptionMode: String, CaseIterable, Codable, Sendable {
    case plaintext
    case rawKey = "raw key"
    case passphrase

    /// A fixed key: benchmarks are not about secrecy.
    static let rawKey32 = Data((0..<32).map { UInt8($0 &* 7 &+ 1) })
    static let passphraseText = "benchmark passphrase"

    /// What `sqlite3_key` receives: a passphrase, or `x'…'` for a raw key.
    var keyMaterial: [UInt8]? {
        switch self {
        case .plaintext: return nil
        // A 32-byte key always has a key material.
        case .rawKey: return try! DatabaseKeySource.rawKey { Self.rawKey32 }.withKeyMaterial { Array($0) }
        case .passphrase: return Array(Self.passphraseText.utf8)
        }
    }
}

/// The times of one workload: CipherDB's and the raw-C baseline's, each
/// measured `runs` times after a warm-up, alternating, in this process.
struct Result: Codable, Sendable {
    var workload: String
    var mode: EncryptionMode
    var cipherDB: Statistics
    var baseline: Statistics
    /// CipherDB's median over the baseline's median.
    var ratio: Double
}

/// Median, minimum and maximum of some durations, in seconds.
struct Statistics: Codable, Sendable {
    var median: Double
    var min: Double
    var max: Double

    init(_ samples: [Double]) {
        let sorted = samples.sorted()
        let middle = sorted.count / 2
        median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
        min = sorted.first ?? 0
        max = sorted.last ?? 0
    }
}

/// Runs workloads against their baselines.
struct Harness {
    var runs: Int
    /// Only the workloads whose name contains it, when given.
    var filter: String?
    var results: [Result] = []

    /// Measures `subject` and `baseline` `runs` times each, alternating
    /// after one warm-up of each, so that both see the same machine state.
    /// `prepare` runs before each measured call, untimed;
    /// `prepareBaseline`, when given, runs before the baseline's instead.
    mutating func measure(
        _ workload: String, mode: EncryptionMode,
        prepare: () throws -> Void = {},
        prepareBaseline: (() throws -> Void)? = nil,
        subject: () throws -> Void,
        baseline: () throws -> Void) async throws
    {
        try await measureAsync(workload, mode: mode, prepare: prepare, prepareBaseline: prepareBaseline,
                               subject: { try subject() }, baseline: { try baseline() })
    }

    /// Measures async work, as ``measure(_:mode:prepare:prepareBaseline:subject:baseline:)``.
    mutating func measureAsync(
        _ workload: String, mode: EncryptionMode,
        prepare: () throws -> Void = {},
        prepareBaseline: (() throws -> Void)? = nil,
        subject: () async throws -> Void,
        baseline: () async throws -> Void) async throws
    {
        guard includes(workload) else { return }
        func prepareForBaseline() throws {
            if let prepareBaseline { try prepareBaseline() } else { try prepare() }
        }
        try prepare()
        let warmUp = try await Self.time(subject)
        try prepareForBaseline(); try await baseline()
        var subjectTimes: [Double] = [], baselineTimes: [Double] = []
        // Workloads of a second or more vary little: fewer runs keep
        // `make bench` under five minutes.
        let runs = warmUp >= Self.longWorkload ? min(runs, Self.runsOfLongWorkloads) : runs
        for _ in 0..<runs {
            try prepare(); subjectTimes.append(try await Self.time(subject))
            try prepareForBaseline(); baselineTimes.append(try await Self.time(baseline))
        }
        let result = Result(workload: workload, mode: mode, cipherDB: Statistics(subjectTimes),
                            baseline: Statistics(baselineTimes),
                            ratio: Statistics(subjectTimes).median / Statistics(baselineTimes).median)
        results.append(result)
        FileHandle.standardError.write(Data("  \(workload) [\(mode.rawValue)]: \(String(format: "%.2fx", result.ratio))\n".utf8))
    }

    static let longWorkload = 1.0
    static let runsOfLongWorkloads = 3

    /// Whether the filter lets the workload run: fixtures that only a
    /// filtered-out workload needs are not built.
    func includes(_ workload: String) -> Bool {
        filter.map { workload.contains($0) } ?? true
    }

    static func time(_ body: () async throws -> Void) async throws -> Double {
        let start = ContinuousClock.now
        try await body()
        let duration = ContinuousClock.now - start
        return Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// The results as an aligned table.
    var table: String {
        var lines = [["workload", "mode", "CipherDB median (min–max)", "raw C median", "ratio"]]
        for result in results {
            lines.append([
                result.workload, result.mode.rawValue,
                "\(Self.format(result.cipherDB.median)) (\(Self.format(result.cipherDB.min))–\(Self.format(result.cipherDB.max)))",
                Self.format(result.baseline.median),
                String(format: "%.2fx", result.ratio),
            ])
        }
        let widths = (0..<5).map { column in lines.map { $0[column].count }.max() ?? 0 }
        return lines.map { line in
            line.enumerated().map { column, text in
                column >= 2 ? String(repeating: " ", count: widths[column] - text.count) + text
                    : text + String(repeating: " ", count: widths[column] - text.count)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }

    static func format(_ seconds: Double) -> String {
        seconds < 0.001 ? String(format: "%.0f µs", seconds * 1e6)
            : seconds < 1 ? String(format: "%.1f ms", seconds * 1e3) : String(format: "%.2f s", seconds)
    }
}
