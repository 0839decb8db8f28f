import Foundation
import Testing

/// SplitMix64: the same sequence for the same seed, on every platform, so
/// that a property or stress test that prints its seed can be replayed.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    public mutating func next(below bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }
}

/// The seeds a property or stress test runs, named `NAME`: `NAME_SEED=n`
/// replays one; otherwise `NAME_RUNS=n` seeds (from 1), or the tier's
/// count. Each test prints its seeds' range and, on failure, the command
/// that replays the failing seed.
///
/// ```swift
/// static let seeds = TestSeeds("CONVERGENCE", test: "ConvergenceTests", correctness: 20, long: 200)
/// for seed in seeds.all { … Issue.record("seed \(seed): … (\(seeds.replay(seed)))") }
/// ```
public struct TestSeeds: Sendable {
    public let name: String
    /// The `--filter` that runs the test.
    public let test: String
    public let all: [UInt64]

    public init(_ name: String, test: String, correctness: Int, long: Int) {
        self.name = name
        self.test = test
        let environment = ProcessInfo.processInfo.environment
        if let seed = environment["\(name)_SEED"].flatMap(UInt64.init) {
            all = [seed]
        } else {
            let runs = environment["\(name)_RUNS"].flatMap(Int.init) ?? TestTier.current.size(correctness: correctness, long: long)
            all = (1...UInt64(max(1, runs))).map { $0 }
        }
        print("\(name): seeds \(all.first!)…\(all.last!) (\(all.count), tier \(TestTier.current.rawValue)); replay one with \(name)_SEED=n")
    }

    /// The command that replays `seed`, from the package root, after
    /// `make build-tests`: `scripts/run-tests` runs the tests of both
    /// packages (this one and Server/) with the PostgreSQL cluster.
    public func replay(_ seed: UInt64) -> String {
        "replay: \(name)_SEED=\(seed) ./scripts/run-tests --filter \(test)"
    }

    /// Runs `run` for every seed, `width` seeds at a time (for runs that are
    /// independent of one another: their own server and databases; most of
    /// a run's time is spent waiting on its server, so two at once halve a
    /// test that would otherwise outlast the rest of the suite), and
    /// records each failure as `seed n, label: failure (replay: …)`. A run
    /// that throws is a failure of its seed. After a failing seed, no
    /// other seed starts.
    ///
    /// ```swift
    /// await seeds.run(label: "\(kind)") { seed in try await ConvergenceRun(seed: seed, kind: kind).run() }
    /// ```
    public func run(width: Int = 2, label: String, _ run: @escaping @Sendable (UInt64) async throws -> [String]) async {
        await withTaskGroup(of: (UInt64, [String]).self) { group in
            var next = all.makeIterator()
            var failed = false
            func start() {
                guard !failed, let seed = next.next() else { return }
                group.addTask {
                    do {
                        return (seed, try await run(seed))
                    } catch {
                        return (seed, ["the run threw \(error)"])
                    }
                }
            }
            for _ in 0..<max(1, width) { start() }
            for await (seed, failures) in group {
                for failure in failures {
                    Issue.record("seed \(seed), \(label): \(failure) (\(replay(seed)))")
                }
                failed = failed || !failures.isEmpty
                start()
            }
        }
    }
}
