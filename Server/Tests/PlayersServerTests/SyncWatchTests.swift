import Foundation
import SyncSchema
import ServerTestSupport
import Synchronization
import TestSupport
import Testing

/// `players sync --watch` against real `players-server` processes: a
/// change through one instance woken into a client watching another, the
/// server stopped and started again, and Ctrl-C. No latency is timed: the
/// servers' metrics show which request brought a change, and that a
/// long-poll was still held when the client stopped.
@Suite struct SyncWatchTests {
    /// The long-poll the client holds on `server` (its first, or the next
    /// after a merge).
    static func waitForLongPoll(on server: ServerProcess) throws {
        try waitUntilBlocking("the watching client's long-poll held by players-server on port \(server.port)") {
            try server.metric("players_server_long_polls_open") == 1
        }
    }

    /// The `GET /v1/sync/rows` (the players' pulls) that `server`
    /// answered with 200.
    static func listsAnswered(by server: ServerProcess) throws -> Double {
        try server.metric(#"players_server_requests_total{route="/v1/sync/rows",method="GET",status="200"}"#) ?? 0
    }

    /// Two instances on one PostgreSQL database seeded with `seed` players,
    /// a client watching the second, whose long-poll it holds for
    /// `silence`; then a change through the first. The held long-poll
    /// brings it (one answer more: at its wait's end, an empty answer and
    /// another request would), with no retry.
    func expectAChangeThroughOneInstanceReachesAClientWatchingAnother(seed: Int, after silence: Duration) async throws {
        try await StoreSandbox.with(.postgres) { sandbox in
            let environment = try sandbox.serverEnvironment
            let instanceA = try ServerProcess(sandbox.serverArguments + ["--seed", String(seed)], environment: environment)
            let instanceB = try ServerProcess(sandbox.serverArguments, environment: environment)
            let client = try CLISandbox()
            try await client.runChecked(["init"])
            let watcher = try WatchProcess(client, url: "http://127.0.0.1:\(instanceB.port)")
            try watcher.waitForLines(1)
            try Self.waitForLongPoll(on: instanceB)
            // The silence is what the test is about: real time, as
            // libcurl's and the server's clocks are, which no test injects.
            let quietSince = ContinuousClock.now
            try await waitUntil("\(silence) of silence", every: .seconds(1)) { ContinuousClock.now - quietSince >= silence }
            try Self.waitForLongPoll(on: instanceB)
            let answered = try Self.listsAnswered(by: instanceB)
            #expect(try instanceA.request("POST", "/v1/rows/player", headers: jsonHeaders, body: playerJSON(seed + 7)).status == 201)
            try watcher.waitForLines(2)
            #expect(try Self.listsAnswered(by: instanceB) == answered + 1, "the held long-poll brought the change")
            #expect(watcher.lines[1] == "Synced with http://127.0.0.1:\(instanceB.port): pushed 0, +1 ~0 -0, conflicts 0, cursor \(seed + 1).")
            #expect(!watcher.errorText.contains("retrying"), "\(watcher.errorText)")
            #expect(try watcher.stop(SIGINT) == 0)
        }
    }

    @Test func aChangeThroughOneInstanceWakesTheLongPollOfAClientWatchingAnother() async throws {
        try await expectAChangeThroughOneInstanceReachesAClientWatchingAnother(seed: 5, after: .zero)
    }

    /// Under the long-poll's wait (50 s): a change waits for the end of
    /// the watching client's long-poll no longer, which this guard would
    /// see; it is no latency measured (it is a fraction of a second).
    static let underTheLongPollsWait: Duration = .seconds(30)

    /// Two clients watch one server; `players add` on the first one's
    /// database (another process) ends the first one's held long-poll,
    /// which pushes the player at once, and the second one's long-poll
    /// brings it.
    @Test(arguments: StoreKind.allCases)
    func aLocalChangeOfAWatchingClientReachesAnotherWatchingClientWithoutWaitingForItsLongPoll(_ kind: StoreKind) async throws {
        try await StoreSandbox.with(kind) { sandbox in
            let server = try ServerProcess(sandbox.serverArguments, environment: try sandbox.serverEnvironment)
            let url = "http://127.0.0.1:\(server.port)"
            let (first, second) = (try CLISandbox(), try CLISandbox())
            for client in [first, second] { try await client.runChecked(["init"]) }
            let firstWatcher = try WatchProcess(first, url: url)
            let secondWatcher = try WatchProcess(second, url: url)
            for watcher in [firstWatcher, secondWatcher] { try watcher.waitForLines(1) }
            try waitUntilBlocking("both clients' long-polls held") { try server.metric("players_server_long_polls_open") == 2 }
            try await first.runChecked(["add", "--name", "Zoé", "--score", "7"])
            try waitUntilBlocking("the player on the second client", timeout: Self.underTheLongPollsWait) {
                secondWatcher.lines.contains { $0.contains("pushed 0, +1 ~0 -0") }
            }
            try waitUntilBlocking("the first client's push", timeout: Self.underTheLongPollsWait) {
                firstWatcher.lines.contains { $0.contains("pushed 1,") }
            }
            #expect(try await second.run(["list"]).output.contains("Zoé"))
            for watcher in [firstWatcher, secondWatcher] {
                #expect(!watcher.errorText.contains("retrying"), "\(watcher.errorText)")
                #expect(try watcher.stop(SIGINT) == 0)
            }
            #expect(try server.stop() == 0)
        }
    }

    /// How long the servers stay quiet before the change: past libcurl's
    /// stall limit of 15 s, which once ended every quiet wait in an error
    /// and a back-off; in the long tier past a whole long-poll (50 s) too.
    static let silence: Duration = TestTier.current.size(correctness: .seconds(20), long: .seconds(60))

    @Test func aChangeAfterASilenceReachesTheWatcherThroughItsHeldLongPoll() async throws {
        try await expectAChangeThroughOneInstanceReachesAClientWatchingAnother(seed: 2, after: Self.silence)
    }

    @Test func watchingResumesAfterTheServerStopsAndStartsAgain() async throws {
        let folder = try TemporaryFolder()
        let first = try ServerProcess(["--database", "server.db", "--seed", "3"], environment: ServerDatabase.environment, folder: folder)
        let port = first.port
        let client = try CLISandbox()
        try await client.runChecked(["init"])
        let watcher = try WatchProcess(client, url: "http://127.0.0.1:\(port)")
        try watcher.waitForLines(1)
        #expect(try first.stop(SIGTERM) == 0)
        try watcher.waitForErrorLine(containing: "retrying in")
        let second = try ServerProcess(["--database", "server.db"], environment: ServerDatabase.environment, folder: folder, port: port)
        #expect(try second.request("POST", "/v1/rows/player", headers: jsonHeaders, body: playerJSON(7)).status == 201)
        // The back-off is at most a few seconds here.
        try watcher.waitForLines(2)
        #expect(watcher.lines[1] == "Synced with http://127.0.0.1:\(port): pushed 0, +1 ~0 -0, conflicts 0, cursor 4.")
        #expect(try watcher.stop(SIGTERM) == 0)
        await #expect(try client.run(["list"]).output.contains("Player 7"))
    }

    /// Docs/Sync.md, "Watching": the documented command, run as written
    /// (on the test server's port), prints the documented lines, and
    /// Ctrl-C stops it with its last line and exit code 0, at once: the
    /// server still holds its long-poll (it answers a closed connection
    /// only at the wait's end).
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
        try await client.runChecked(["init"])
        let watcher = try WatchProcess(client, arguments: arguments)
        try watcher.waitForLines(1)
        #expect(watcher.lines == [local(lines[index + 1])])
        try Self.waitForLongPoll(on: server)
        #expect(try server.request("POST", "/v1/rows/player", headers: jsonHeaders, body: playerJSON(26)).status == 201)
        try watcher.waitForLines(2)
        try Self.waitForLongPoll(on: server)
        #expect(try watcher.stop(SIGINT) == 0)
        #expect(try server.metric("players_server_long_polls_open") == 1, "Ctrl-C did not wait for the long-poll's answer")
        #expect(lines[index + 3] == "^C")
        #expect(watcher.lines == [lines[index + 1], lines[index + 2], lines[index + 4]].map(local))
    }

    @Test func watchWithJSONPrintsOneObjectPerLineAndMerge() async throws {
        let server = try ServerProcess(["--seed", "3"])
        let client = try CLISandbox()
        try await client.runChecked(["init"])
        let watcher = try WatchProcess(client, arguments: ["sync", "--watch", "--json", "--url", "http://127.0.0.1:\(server.port)"])
        try watcher.waitForLines(1)
        try Self.waitForLongPoll(on: server)
        #expect(try server.request("POST", "/v1/rows/player", headers: jsonHeaders, body: playerJSON(4)).status == 201)
        try watcher.waitForLines(2)
        #expect(try watcher.stop(SIGINT) == 0)
        let objects = try watcher.lines.dropLast().map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        #expect(objects.map { $0["inserted"] as? Int } == [3, 1])
        #expect(objects.map { ($0["cursorAfter"] as? String).flatMap { try? SyncCursor($0).counter } } == [3, 4])
        #expect(watcher.lines.last == "Stopped watching http://127.0.0.1:\(server.port).")
    }

    /// Other `players` commands on the database of a watching client, each
    /// a process that opens and closes the file while the client runs:
    /// they see what the client merged, and their writes stay. With a
    /// passphrase, for which every connection reads the file's salt, and
    /// a new reader of the client's pool used to drop the client's locks
    /// on the file: the commands then deleted the WAL it still wrote to.
    @Test func commandsRunWhileAClientWatchesSeeItsMergesAndKeepTheirWrites() async throws {
        let server = try ServerProcess(["--seed", "2"])
        let client = try CLISandbox()
        let passphrase = ["PLAYERS_PASSPHRASE": "watched secret"]
        func players(_ arguments: [String]) async throws -> String {
            let result = try await client.run(arguments, environment: passphrase)
            guard result.status == 0 else { throw TestFailure("players \(arguments.joined(separator: " ")): \(result.error)") }
            return result.output
        }
        // Sorted, not a set: two seeded players may have the same name.
        func names() async throws -> [String] {
            try jsonLines(try await players(["list", "--json"])).compactMap { $0["name"] as? String }.sorted()
        }
        _ = try await players(["init"])
        let watcher = try WatchProcess(try client.makeProcess(["sync", "--watch", "--url", "http://127.0.0.1:\(server.port)"],
                                                              environment: passphrase), outputIn: client.root)
        try watcher.waitForLines(1)
        let seeded = try await names()
        #expect(seeded.count == 2)
        // Added while the client holds its long-poll: the server's change
        // that ends it is the next line, whatever the load.
        try Self.waitForLongPoll(on: server)
        _ = try await players(["add", "--name", "Added Before", "--score", "1"])
        #expect(try server.request("POST", "/v1/rows/player", headers: jsonHeaders, body: #"{"values":{"name":"From The Server","score":2}}"#).status == 201)
        try watcher.waitForLines(2)
        #expect(try await names() == (seeded + ["Added Before", "From The Server"]).sorted(), "the watcher's merge, seen by another command")
        _ = try await players(["add", "--name", "Added After", "--score", "3"])
        #expect(try watcher.stop(SIGINT) == 0)
        #expect(try await names() == (seeded + ["Added Before", "From The Server", "Added After"]).sorted(), "\(watcher.errorText)")
    }

    @Test func watchWithDryRunIsAUsageError() async throws {
        let client = try CLISandbox()
        try await client.runChecked(["init"])
        let result = try await client.run(["sync", "--watch", "--dry-run", "--url", "http://127.0.0.1:9"])
        #expect(result.status == 2)
        #expect(result.error.contains("--watch"))
    }
}

/// `players sync --watch --url URL` running in the background, its output
/// in files of its sandbox.
final class WatchProcess: Sendable {
    let process: ChildProcess
    let output: URL
    let errors: URL

    convenience init(_ sandbox: CLISandbox, url: String) throws {
        try self.init(sandbox, arguments: ["sync", "--watch", "--url", url])
    }

    convenience init(_ sandbox: CLISandbox, arguments: [String]) throws {
        try self.init(try sandbox.makeProcess(arguments), outputIn: sandbox.root)
    }

    /// Runs `process` (`players` or `notes`), its output in files of
    /// `folder`.
    init(_ process: ChildProcess, outputIn folder: URL) throws {
        self.process = process
        output = folder.appendingPathComponent("watch.out")
        errors = folder.appendingPathComponent("watch.err")
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
    func waitForLines(_ count: Int) throws {
        try waitWhileRunning("\(count) lines on standard output") { lines.count >= count }
    }

    /// Waits until standard error has a line with `text`.
    func waitForErrorLine(containing needle: String) throws {
        try waitWhileRunning("a line with '\(needle)' on standard error") { text(errors).contains(needle) }
    }

    /// Sends `signal` and waits for the exit status.
    func stop(_ signal: Int32) throws -> Int32 {
        kill(process.processIdentifier, signal)
        try waitUntilBlocking("players sync --watch to exit after signal \(signal)") { !process.isRunning }
        return process.terminationStatus
    }

    /// Waits until the client exits by itself, and returns its exit status.
    func waitForExit() throws -> Int32 {
        try waitUntilBlocking("players sync --watch to exit") { !process.isRunning }
        return process.terminationStatus
    }

    /// What the client printed on standard error so far.
    var errorText: String { text(errors) }

    /// Waits until `condition` holds; fails at once if the client exits.
    private func waitWhileRunning(_ what: String, _ condition: () -> Bool) throws {
        try waitUntilBlocking("players sync --watch to print \(what)") {
            if condition() { return true }
            guard process.isRunning else { throw TestFailure("players sync --watch exited before printing \(what): \(text(output)) \(text(errors))") }
            return false
        }
    }

    private func text(_ file: URL) -> String { (try? String(contentsOf: file, encoding: .utf8)) ?? "" }
}
