import Foundation
import TestSupport
import Testing

@Suite struct ServerOptionTests {
    /// Values out of range, or that used to trap in a conversion (1e20s),
    /// are usage errors: status 2, one message naming the option.
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
    func outOfRangeValuesAreUsageErrors(_ arguments: [String]) async throws {
        let folder = try TemporaryFolder()
        let result = try await ServerProcess.run(arguments, in: folder)
        #expect(result.status == 2, "\(arguments): \(result.error)")
        #expect(result.error.contains(arguments[0]), "\(arguments): \(result.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func valuesAtTheEdgesOfTheirRangesStartTheServer() throws {
        let server = try ServerProcess([
            "--tombstone-retention", "36500d", "--idle-timeout", "1h", "--read-timeout", "1s",
            "--max-connections", "100000", "--seed", "0",
        ])
        #expect(try server.request("GET", "/healthz").status == 200)
        #expect(try server.stop() == 0)
    }

    @Test func aUsageErrorIsOneLineAndAHint() async throws {
        let folder = try TemporaryFolder()
        let result = try await ServerProcess.run(["--seed", "5000000"], in: folder)
        #expect(result.status == 2)
        #expect(result.error == "players-server: --seed must be from 0 to 1000000\nSee 'players-server serve --help' for more information.\n")
        #expect(result.output.isEmpty)
        // The parser lists allowed values one per line: they are one line too.
        let level = try await ServerProcess.run(["--log-level", "bogus"], in: folder)
        #expect(level.status == 2)
        #expect(level.error == "players-server: the value 'bogus' is invalid for '--log-level <level>'; give one of the following: "
            + "trace, debug, info, notice, warning, error, critical\nSee 'players-server serve --help' for more information.\n")
    }

    @Test func aMistypedOptionOrCommandIsNamedWithTheNearestOne() async throws {
        let folder = try TemporaryFolder()
        let result = try await ServerProcess.run(["--prot", "8080"], in: folder)
        #expect(result.status == 2)
        #expect(result.error == "players-server: unknown option '--prot'; did you mean '--port'?\n")
        let backup = try await ServerProcess.run(["backup", "--databse", "server.db", "copy.db"], in: folder)
        #expect(backup.status == 2)
        #expect(backup.error == "players-server: unknown option '--databse'; did you mean '--database'?\n")
        let command = try await ServerProcess.run(["serv"], in: folder)
        #expect(command.status == 2)
        #expect(command.error == "players-server: 'serv' is not a players-server command; did you mean 'serve'?\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test func versionPrintsTheVersionsOfTheProgramAndItsLibrary() async throws {
        let result = try await ServerProcess.run(["--version"], in: try TemporaryFolder())
        #expect(result.status == 0)
        #expect(result.error.isEmpty)
        let pattern = #/players-server \d+\.\d+\.\d+ \(SQLCipher 3\.4\.1[^,]*, SQLite 3\.15\.2, (debug|release) build\)\n/#
        #expect(try pattern.wholeMatch(in: result.output) != nil, "\(result.output)")
    }
}
