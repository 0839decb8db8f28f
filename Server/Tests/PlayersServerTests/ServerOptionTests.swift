import Foundation
import TestSupport
import Testing

@Suite struct ServerOptionTests {
    /// Values out of range, or that used to trap in a conversion (1e20s),
    /// are usage errors: status 64, one message naming the option.
    @Test(arguments: [
        ["--tombstone-retention", "1e20s"], ["--tombstone-retention", "nans"], ["--tombstone-retention", "infd"],
        ["--tombstone-retention", "0s"], ["--tombstone-retention", "-1d"], ["--tombstone-retention", "36501d"],
        ["--tombstone-retention", "30"], ["--tombstone-retention", "1e308d"],
        ["--idle-timeout", "0s"], ["--idle-timeout", "2h"], ["--idle-timeout", "1e20s"], ["--idle-timeout", "nans"],
        ["--read-timeout", "0.5s"], ["--read-timeout", "61m"], ["--read-timeout", "-5s"],
        ["--max-connections", "0"], ["--max-connections", "100001"], ["--max-connections", "99999999999999999999"],
        ["--seed", "-1"], ["--seed", "1000001"], ["--seed", "1e20"],
        ["--port", "65536"], ["--port", "-1"], ["--port", "1e5"],
        ["--host", ""], ["--allowed-host", ""],
    ])
    func outOfRangeValuesAreUsageErrors(_ arguments: [String]) throws {
        let folder = try TemporaryFolder()
        let result = try ServerProcess.run(arguments, in: folder)
        #expect(result.status == 64, "\(arguments): \(result.error)")
        #expect(result.error.contains(arguments[0]), "\(arguments): \(result.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func valuesAtTheEdgesOfTheirRangesStartTheServer() throws {
        let server = try ServerProcess([
            "--tombstone-retention", "36500d", "--idle-timeout", "1h", "--read-timeout", "1s",
            "--max-connections", "100000", "--seed", "0",
        ])
        #expect(try server.request("GET", "/healthz").status == 200)
        #expect(server.stop() == 0)
    }
}
