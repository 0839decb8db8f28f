import Foundation
import TestSupport
import Testing

/// `cipherdb-bench` runs every workload and reports a ratio for each: a
/// check that the benchmarks still work, not a measure of speed.
@Suite struct BenchmarkProgramTests {
    @Test func everyWorkloadReportsARatioForEveryMode() async throws {
        let result = try await run(BuiltProducts.path("cipherdb-bench"), ["--quick", "--runs", "1", "--json"])
        #expect(result.status == 0, "\(result.error)")
        let report = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
        let results = report?["results"] as? [[String: Any]] ?? []
        // 10 item and open workloads in 3 modes; the pool keyed by a
        // DatabaseKeySource with a passphrase; 8 application workloads
        // (players, sync, observation) unencrypted and with a raw key;
        // 2 of stored rows, which read no database, once; Notes' sync
        // end-to-end against in the clear, with a raw key.
        #expect(results.count == 50)
        #expect(Set(results.compactMap { $0["mode"] as? String }) == ["plaintext", "raw key", "passphrase"])
        #expect(results.allSatisfy { ($0["ratio"] as? Double ?? 0) > 0 })
        // One memory workload, for each app.
        let memory = report?["memory"] as? [[String: Any]] ?? []
        #expect(memory.compactMap { $0["app"] as? String } == ["players", "notes"])
        #expect(memory.compactMap { $0["rows"] as? Int } == [2_000, 2_000])
        #expect(memory.last?["notebooks"] as? Int == 2)
        #expect(memory.allSatisfy { ($0["peakResidentBytes"] as? Int ?? 0) > ($0["payloadBytes"] as? Int ?? .max) })
    }

    @Test func theMemoryWorkloadRunsOncePerPlayerCount() async throws {
        let result = try await run(BuiltProducts.path("cipherdb-bench"), [
            "--quick", "--runs", "1", "--json", "--workload", "memory", "--memory-players", "1000", "--memory-players", "2000",
        ])
        #expect(result.status == 0, "\(result.error)")
        let report = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
        let memory = report?["memory"] as? [[String: Any]] ?? []
        #expect(memory.filter { $0["app"] as? String == "players" }.compactMap { $0["rows"] as? Int } == [1000, 2000])
        #expect((report?["results"] as? [[String: Any]])?.isEmpty == true)
    }

    @Test func aMemoryPlayerCountOutOfRangeIsAUsageError() async throws {
        let result = try await run(BuiltProducts.path("cipherdb-bench"), ["--memory-players", "0"])
        #expect(result.status == 64)
        #expect(result.error.contains("--memory-players must be from 1 to 10000000, not 0."))
    }

    @Test func anUnknownModeIsAUsageError() async throws {
        let result = try await run(BuiltProducts.path("cipherdb-bench"), ["--mode", "rot13"])
        #expect(result.status == 64)
        #expect(result.error.contains("Unknown mode 'rot13'"))
    }
}
