import Foundation
import TestSupport
import Testing

/// `--seed N` shows a progress bar on a terminal, and nothing on a file.
/// Both run with `PLAYERS_PROGRESS_DELAY=0`: progress from the start,
/// whatever the machine's speed.
@Suite struct SeedProgressTests {
    static let count = "2000"
    static let noDelay = progressDelay(seconds: 0)

    @Test func aSeedOnATerminalShowsItsProgress() async throws {
        let folder = try TemporaryFolder()
        let server = shellQuoted(try ServerProcess.executable().path)
        // The shell stops the server itself once it listens (the test's
        // process cannot signal through `script`).
        let script = """
            \(server) --seed \(Self.count) --port 0 > out & pid=$!
            while ! grep -q listening out; do sleep 0.1; done
            kill $pid; wait $pid
            """
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        process.environment = ServerProcess.environment(Self.noDelay)
        process.currentDirectoryURL = folder.url
        let (status, output) = try await runOnTerminal(process)
        #expect(status == 0, "\(output)")
        #expect(output.contains("\rSeed ["), "\(output)")
        #expect(output.contains("100%"), "\(output)")
    }

    @Test func aSeedWithoutATerminalPrintsNoProgress() throws {
        let server = try ServerProcess(["--seed", Self.count], environment: Self.noDelay)
        #expect(try server.stop() == 0)
        #expect(server.errorOutput.isEmpty, "\(server.errorOutput)")
    }
}
