import Foundation
import ServerTestSupport
import SyncSchema
import TestSupport

/// The built `players-server` running as a subprocess on a free loopback
/// port, in a temporary folder (its working directory), killed when
/// released (the folder goes with the last server that uses it).
final class ServerProcess: @unchecked Sendable {
    // @unchecked: `port` is set once, in init.
    let folder: TemporaryFolder
    let process = ChildProcess()
    private(set) var port = 0

    /// The built executable.
    static func executable() throws -> URL {
        try BuiltProducts.url("players-server")
    }

    /// The environment of every run: no PLAYERS_* variable unless given.
    static func environment(_ extra: [String: String]) -> [String: String] {
        ["PATH": "/usr/bin:/bin", "PLAYERS_SERVER_LOG_LEVEL": "warning"].merging(extra) { _, new in new }
    }

    /// Starts the server with `arguments` (and `--port 0`, or `port` to
    /// come back on the same one), in `folder` if given, and waits for its
    /// "listening" line.
    init(_ arguments: [String], environment: [String: String] = [:], folder: TemporaryFolder? = nil, port: Int = 0) throws {
        self.folder = try folder ?? TemporaryFolder()
        process.executableURL = try Self.executable()
        process.arguments = arguments + ["--port", String(port)]
        process.environment = Self.environment(environment)
        process.currentDirectoryURL = self.folder.url
        let output = self.folder.url("server.out")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        _ = FileManager.default.createFile(atPath: self.folder.path("server.err"), contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: self.folder.url("server.err"))
        try process.run()
        try waitUntilBlocking("players-server \(arguments.joined(separator: " ")) to print its listening line") {
            guard process.isRunning else { throw TestFailure("players-server did not start: \(errorOutput)") }
            let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix("players-server listening on") }),
                  let port = line.split(separator: ":").last.flatMap({ Int($0) })
            else { return false }
            self.port = port
            return true
        }
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    var errorOutput: String {
        (try? String(contentsOf: folder.url("server.err"), encoding: .utf8)) ?? ""
    }

    func path(_ name: String) -> String { folder.path(name) }

    /// Sends `signal` and waits for the exit: the status (128 + the
    /// signal's number when a signal ended it). Throws when the server is
    /// still running after `timeout`, the hang guard unless a drain lasts it.
    func stop(_ signal: Int32 = SIGTERM, within timeout: Duration = hangGuard) throws -> Int32 {
        kill(process.processIdentifier, signal)
        try waitUntilBlocking("players-server on port \(port) to exit after signal \(signal)", timeout: timeout) { !process.isRunning }
        return process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus
    }

    /// Runs `players-server` to its end (not a server: a usage error or
    /// `backup`), in `folder`.
    static func run(_ arguments: [String], environment: [String: String] = [:], in folder: TemporaryFolder) async throws -> (status: Int32, output: String, error: String) {
        let process = ChildProcess()
        process.executableURL = try executable()
        process.arguments = arguments
        process.environment = Self.environment(environment)
        process.currentDirectoryURL = folder.url
        return try await TestSupport.run(process)
    }

    /// The value of the sample `name` of `GET /metrics` (without labels),
    /// if the server shows it. Counted in it: this request itself, when
    /// `name` is `players_server_requests_in_progress`.
    /// The cursor of the server's answers now: its snapshot's.
    func cursor(token: String? = nil) throws -> String {
        try SyncPage.players(try request("GET", "/v1/sync/rows?limit=1", headers: token.map { ["Authorization": "Bearer \($0)"] } ?? [:]).body).cursor
    }

    /// Sends `signal` and returns at once (SIGHUP).
    func signal(_ signal: Int32) {
        kill(process.processIdentifier, signal)
    }

    /// The value of the metric `name`, read with `token` when the server
    /// asks for one (`--auth jwt`: a token with the role `metrics`).
    func metric(_ name: String, token: String? = nil) throws -> Double? {
        try request("GET", "/metrics", headers: token.map { ["Authorization": "Bearer \($0)"] } ?? [:])
            .body.split(separator: "\n").first { $0.hasPrefix(name + " ") }
            .flatMap { Double($0.split(separator: " ").last!) }
    }

    /// A request, with `Connection: close`: see ``RawHTTP``.
    func request(_ method: String, _ path: String, host: String? = nil, headers: [String: String] = [:], body: String = "",
                 timeout: TimeInterval = RawHTTP.hangGuardSeconds) throws -> RawHTTP.Response {
        try RawHTTP.request(port: port, method, path, host: host ?? "127.0.0.1:\(port)", headers: headers, body: body, timeout: timeout)
    }
}
