import Foundation
import ServerTestSupport
import Synchronization
import TestSupport
import Testing

/// `players sync --watch` against real `players-server` processes: a
/// change through one instance seen through another within a second, the
/// server stopped and started again, and Ctrl-C.
@Suite struct SyncWatchTests {
    @Test func aChangeThroughOneInstanceReachesAClientWatchingAnotherWithinASecond() async throws {
        try await StoreSandbox.with(.postgres) { sandbox in
            let environment = try sandbox.serverEnvironment
            let instanceA = try ServerProcess(sandbox.serverArguments + ["--seed", "5"], environment: environment)
            let instanceB = try ServerProcess(sandbox.serverArguments, environment: environment)
            let client = try CLISandbox()
            try client.runChecked(["init"])
            let watcher = try WatchProcess(client, url: "http://127.0.0.1:\(instanceB.port)")
            try watcher.waitForLines(1)
            // (The long-poll reaches the server.)
            try await Task.sleep(for: .milliseconds(500))
            let start = Date()
            #expect(try instanceA.request("POST", "/v1/players", headers: jsonHeaders, body: playerJSON(1)).status == 201)
            try watcher.waitForLines(2, timeout: 5)
            let latency = Date().timeIntervalSince(start)
            print("players sync --watch: a change through instance A seen through instance B after \(Int(latency * 1000)) ms")
            #expect(latency < 1)
            #expect(watcher.lines[1] == "Synced with http://127.0.0.1:\(instanceB.port): pushed 0, +1 ~0 -0, conflicts 0, cursor 6.")
            #expect(watcher.stop(SIGINT) == 0)
        }
    }

    @Test func watchingResumesAfterTheServerStopsAndStartsAgain() async throws {
        let folder = try TemporaryFolder()
        let first = try ServerProcess(["--database", "server.db", "--seed", "3"], environment: ServerDatabase.environment, folder: folder)
        let port = first.port
        let client = try CLISandbox()
        try client.runChecked(["init"])
        let watcher = try WatchProcess(client, url: "http://127.0.0.1:\(port)")
        try watcher.waitForLines(1)
        #expect(first.stop(SIGTERM) == 0)
        try watcher.waitForErrorLine(containing: "retrying in", timeout: 10)
        let second = try ServerProcess(["--database", "server.db"], environment: ServerDatabase.environment, folder: folder, port: port)
        #expect(try second.request("POST", "/v1/players", headers: jsonHeaders, body: playerJSON(7)).status == 201)
        // The back-off is at most a few seconds here.
        try watcher.waitForLines(2, timeout: 20)
        #expect(watcher.lines[1] == "Synced with http://127.0.0.1:\(port): pushed 0, +1 ~0 -0, conflicts 0, cursor 4.")
        #expect(watcher.stop(SIGTERM) == 0)
        #expect(try client.run(["list"]).output.contains("Player 7"))
    }

    /// Docs/Sync.md, "Watching": the documented command, run as written
    /// (on the test server's port), prints the documented lines, and
    /// Ctrl-C stops it with its last line and exit code 0.
    @Test func theDocumentedWatchPrintsEachMergeAndStopsOnCtrlC() async throws {
        let lines = try String(contentsOf: BuiltProducts.packageRoot.appendingPathComponent("Docs/Sync.md"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        guard let index = lines.firstIndex(where: { $0.hasPrefix("$ players sync --watch") }), index + 5 < lines.count else {
            throw TestFailure("Docs/Sync.md has no 'players sync --watch' example")
        }
        let server = try ServerProcess(["--seed", "25"])
        let local = { (line: String) in line.replacingOccurrences(of: "127.0.0.1:8080", with: "127.0.0.1:\(server.port)") }
        let arguments = local(lines[index]).split(separator: " ").dropFirst(2).map(String.init)
        let client = try CLISandbox()
        try client.runChecked(["init"])
        let watcher = try WatchProcess(client, arguments: arguments)
        try watcher.waitForLines(1)
        #expect(watcher.lines == [local(lines[index + 1])])
        try await Task.sleep(for: .milliseconds(500))
        #expect(try server.request("POST", "/v1/players", headers: jsonHeaders, body: playerJSON(26)).status == 201)
        try watcher.waitForLines(2, timeout: 30)
        let start = Date()
        #expect(watcher.stop(SIGINT) == 0)
        #expect(Date().timeIntervalSince(start) < 3)
        #expect(lines[index + 3] == "^C")
        #expect(watcher.lines == [lines[index + 1], lines[index + 2], lines[index + 4]].map(local))
    }

    @Test func watchWithJSONPrintsOneObjectPerLineAndMerge() async throws {
        let server = try ServerProcess(["--seed", "3"])
        let client = try CLISandbox()
        try client.runChecked(["init"])
        let watcher = try WatchProcess(client, arguments: ["sync", "--watch", "--json", "--url", "http://127.0.0.1:\(server.port)"])
        try watcher.waitForLines(1)
        try await Task.sleep(for: .milliseconds(500))
        #expect(try server.request("POST", "/v1/players", headers: jsonHeaders, body: playerJSON(4)).status == 201)
        try watcher.waitForLines(2, timeout: 30)
        #expect(watcher.stop(SIGINT) == 0)
        let objects = try watcher.lines.dropLast().map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        #expect(objects.map { $0["inserted"] as? Int } == [3, 1])
        #expect(objects.map { $0["cursorAfter"] as? String } == ["3", "4"])
        #expect(watcher.lines.last == "Stopped watching http://127.0.0.1:\(server.port).")
    }

    @Test func watchWithDryRunIsAUsageError() throws {
        let client = try CLISandbox()
        try client.runChecked(["init"])
        let result = try client.run(["sync", "--watch", "--dry-run", "--url", "http://127.0.0.1:9"])
        #expect(result.status == 2)
        #expect(result.error.contains("--watch"))
    }
}

/// `players sync --watch --url URL` running in the background, its output
/// in files of its sandbox.
final class WatchProcess: @unchecked Sendable {
    // @unchecked: `process` is set once in init; Process itself is
    // thread-safe for the calls made here (signals, waiting, status).
    let process: Process
    let output: URL
    let errors: URL

    convenience init(_ sandbox: CLISandbox, url: String) throws {
        try self.init(sandbox, arguments: ["sync", "--watch", "--url", url])
    }

    init(_ sandbox: CLISandbox, arguments: [String]) throws {
        process = try sandbox.makeProcess(arguments)
        output = sandbox.root.appendingPathComponent("watch.out")
        errors = sandbox.root.appendingPathComponent("watch.err")
        for file in [output, errors] { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    var lines: [String] { text(output).split(separator: "\n").map(String.init) }

    /// Waits until standard output has `count` lines.
    func waitForLines(_ count: Int, timeout: TimeInterval = 20) throws {
        try waitUntil(timeout: timeout, "\(count) lines") { lines.count >= count }
    }

    /// Waits until standard error has a line with `text`.
    func waitForErrorLine(containing needle: String, timeout: TimeInterval) throws {
        try waitUntil(timeout: timeout, "a line with '\(needle)' on standard error") { text(errors).contains(needle) }
    }

    /// Sends `signal` and waits for the exit status (nil after 10 s).
    func stop(_ signal: Int32) -> Int32? {
        kill(process.processIdentifier, signal)
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        return process.isRunning ? nil : process.terminationStatus
    }

    private func waitUntil(timeout: TimeInterval, _ what: String, _ condition: () -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            guard Date() < deadline, process.isRunning else {
                throw TestFailure("players sync --watch: no \(what): \(text(output)) \(text(errors))")
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
    }

    private func text(_ file: URL) -> String { (try? String(contentsOf: file, encoding: .utf8)) ?? "" }
}
