import Foundation
import TestSupport
import Testing

/// The tests' own way to start programs (`posix_spawn`, instead of
/// Foundation's `Process`, which crashes now and then on Linux).
@Suite struct ChildProcessTests {
    @Test func theExitCodeAndBothOutputsComeBack() async throws {
        let result = try await run("/bin/sh", ["-c", "printf out; printf err >&2; exit 3"])
        #expect(result.status == 3)
        #expect(result.output == "out")
        #expect(result.error == "err")
    }

    @Test func aProgramEndedBySignalSaysSo() async throws {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "kill -KILL $$"]
        try process.run()
        try await onThread { process.waitUntilExit() }
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(process.terminationStatus == SIGKILL)
        #expect(!process.isRunning)
    }

    @Test func theProgramRunsInItsFolderWithItsEnvironment() async throws {
        let folder = try TemporaryFolder()
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", #"pwd; printf '%s\n' "$GREETING""#]
        process.environment = ["GREETING": "hello there"]
        process.currentDirectoryURL = folder.url
        let result = try await run(process)
        #expect(result.output == "\(folder.url.resolvingSymlinksInPath().path)\nhello there\n")
    }

    /// A descriptor that the test process leaves open in children (no
    /// close-on-exec) stays out of them: a pipe held by another test's
    /// child would never reach its end of file.
    @Test func theProgramGetsOnlyItsThreeStreams() async throws {
        let leaked = open("/dev/null", O_RDONLY)
        #expect(leaked > 2)
        defer { close(leaked) }
        // ls opens the folder it lists: descriptor 3.
        let result = try await run("/bin/ls", ["/proc/self/fd"])
        #expect(result.output.split(separator: "\n") == ["0", "1", "2", "3"])
    }

    @Test func aMegabyteGoesInAndComesOutWhole() async throws {
        let input = String(repeating: "0123456789abcdef", count: 65_536)
        let result = try await run("/bin/cat", [], input: input)
        #expect(result.status == 0)
        #expect(result.output == input)
    }

    @Test func aProgramThatIsMissingIsAnErrorNotAnExit() async throws {
        #expect(throws: TestFailure.self) { try runBlocking("/nonexistent/program", []) }
    }
}
