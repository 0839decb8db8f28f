import ArgumentParser
import Foundation

/// `cipherdb-bench`: CipherDB against raw `sqlite3_*` calls on the same
/// SQLCipher, in the same process run (Docs/Benchmarks.md).
@main
struct CipherDBBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cipherdb-bench",
        abstract: "Measure CipherDB against raw SQLCipher calls, as ratios.",
        discussion: """
            Each workload runs once to warm up, then --runs times, alternating with its raw-C \
            baseline; the ratio is CipherDB's median over the baseline's. Build with -c release \
            ('make bench'): debug figures mean nothing.
            """)

    @Option(help: "Measured runs of each workload (after one warm-up).")
    var runs = 5

    @Flag(help: "Small row counts: checks that every workload runs, quickly.")
    var quick = false

    @Option(help: ArgumentHelp("Encryption modes to run: plaintext, raw-key, passphrase (default: all).", valueName: "mode"))
    var mode: [String] = []

    @Option(help: ArgumentHelp("Run only the workloads whose name contains this text (for profiling).", valueName: "text"))
    var workload: String?

    @Flag(help: "Print the results as JSON on standard output.")
    var json = false

    @Option(help: ArgumentHelp(
        "Where the benchmark databases go (default: /dev/shm when it exists, so that disk flushes do not drown what is measured).",
        valueName: "folder"))
    var directory: String?

    @Option(help: ArgumentHelp(
        "Players in the snapshot that the memory workload syncs, repeatable to see how memory grows with the data (default: 1000000; 2000 with --quick).",
        valueName: "count"))
    var memoryPlayers: [Int] = []

    @Option(help: ArgumentHelp(
        "Notes in the snapshot that the notes memory workload syncs (a notebook per thousand), repeatable (default: 1000000; 2000 with --quick).",
        valueName: "count"))
    var memoryNotes: [Int] = []

    /// The child process of a memory workload: syncs the first
    /// `--memory-players` players, or `--memory-notes` notes, into a
    /// database in this folder.
    @Option(help: .hidden)
    var syncMemory: String?

    /// The app of the child process of `--sync-memory`.
    @Option(help: .hidden)
    var syncMemoryApp: String?

    func validate() throws {
        guard (1...100).contains(runs) else { throw ValidationError("--runs must be from 1 to 100.") }
        for count in memoryPlayers where !(1...10_000_000).contains(count) {
            throw ValidationError("--memory-players must be from 1 to 10000000, not \(count).")
        }
        for count in memoryNotes where !(1...10_000_000).contains(count) {
            throw ValidationError("--memory-notes must be from 1 to 10000000, not \(count).")
        }
        for name in mode where Self.mode(named: name) == nil {
            throw ValidationError("Unknown mode '\(name)': use plaintext, raw-key or passphrase.")
        }
    }

    static func parentFolder(_ directory: String?) -> URL {
        if let directory { return URL(fileURLWithPath: directory) }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: "/dev/shm", isDirectory: &isDirectory), isDirectory.boolValue {
            return URL(fileURLWithPath: "/dev/shm")
        }
        return FileManager.default.temporaryDirectory
    }

    static func mode(named name: String) -> EncryptionMode? {
        EncryptionMode.allCases.first { $0.rawValue.replacingOccurrences(of: " ", with: "-") == name }
    }

    struct Report: Encodable {
        var runs: Int
        var quick: Bool
        var sqlcipherVersion = "3.4.1"
        var results: [Result]
        /// One result per `--memory-players` count, then per
        /// `--memory-notes` count, in the order given.
        var memory: [SnapshotMemoryWorkload.Result]
    }

    func run() async throws {
        if let syncMemory {
            guard let app = syncMemoryApp.flatMap(SnapshotMemoryWorkload.App.init(rawValue:)) else {
                throw ValidationError("--sync-memory needs --sync-memory-app players or notes.")
            }
            return try await SnapshotMemoryWorkload.measureChild(
                app: app, folder: URL(fileURLWithPath: syncMemory), rowCount: (app == .players ? memoryPlayers : memoryNotes).first ?? 0)
        }
        let folder = Self.parentFolder(directory).appendingPathComponent("cipherdb-bench-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let modes = mode.isEmpty ? EncryptionMode.allCases : mode.compactMap(Self.mode(named:))
        var harness = Harness(runs: runs, filter: workload)
        let items = ItemWorkloads(folder: folder, fetchCount: quick ? 2_000 : 200_000, insertCount: quick ? 500 : 50_000)
        let opening = OpenWorkloads(folder: folder)
        let players = PlayersWorkloads(folder: folder, playerCount: quick ? 500 : 100_000, updateCount: quick ? 50 : 10_000)
        let sync = SyncWorkloads(folder: folder, playerCount: quick ? 500 : 100_000)
        let storedRows = StoredRowWorkloads(rowCount: quick ? 500 : 100_000)
        let notesSync = NotesSyncWorkloads(folder: folder, noteCount: quick ? 500 : 20_000)
        let observation = ObservationWorkload(folder: folder, playerCount: 1_000, commitCount: quick ? 10 : 100)
        for mode in modes {
            FileHandle.standardError.write(Data("\(mode.rawValue):\n".utf8))
            try await items.run(&harness, mode: mode)
            try await opening.run(&harness, mode: mode)
            // A passphrase costs its key derivation when a connection opens,
            // which the open workloads measure, and nothing after: the
            // long application workloads run unencrypted and with a raw key.
            guard mode != .passphrase else { continue }
            try await players.run(&harness, mode: mode)
            try await sync.run(&harness, mode: mode)
            try await notesSync.run(&harness, mode: mode)
            try await storedRows.run(&harness, mode: mode)
            try await observation.run(&harness, mode: mode)
        }
        var memory: [SnapshotMemoryWorkload.Result] = []
        for app in SnapshotMemoryWorkload.App.allCases where harness.includes(app.workloadName) {
            let counts = app == .players ? memoryPlayers : memoryNotes
            for count in counts.isEmpty ? [quick ? 2_000 : 1_000_000] : counts {
                memory.append(try SnapshotMemoryWorkload(app: app, folder: folder, rowCount: count).run())
            }
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            let report = Report(runs: runs, quick: quick, results: harness.results, memory: memory)
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            if !harness.results.isEmpty { print(harness.table) }
            if !harness.results.isEmpty && !memory.isEmpty { print("") }
            for result in memory { print("memory: " + result.summary) }
        }
    }
}
