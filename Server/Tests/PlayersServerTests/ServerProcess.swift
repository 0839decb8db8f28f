import Foundation
import TestSupport

/// The built `players-server` running as a subprocess on a free loopback
/// port, in a temporary folder (its working directory), killed when
/// released (the folder goes with the last server that uses it).
final class ServerProcess: @unchecked Sendable {
    // @unchecked: `process` is set once in init; Process itself is
    // thread-safe for the calls made here (signals, waiting, status).
    let folder: TemporaryFolder
    let process = Process()
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
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline && process.isRunning {
            let text = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("players-server listening on") }),
               let port = line.split(separator: ":").last.flatMap({ Int($0) }) {
                self.port = port
                return
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw TestFailure("players-server did not start: \(errorOutput)")
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    var errorOutput: String {
        (try? String(contentsOf: folder.url("server.err"), encoding: .utf8)) ?? ""
    }

    func path(_ name: String) -> String { folder.path(name) }

    /// Sends `signal` and waits for the exit: the status, or nil if the
    /// server is still running after `timeout` seconds.
    func stop(_ signal: Int32 = SIGTERM, timeout: TimeInterval = 5) -> Int32? {
        kill(process.processIdentifier, signal)
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        guard !process.isRunning else { return nil }
        return process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus
    }

    /// Runs `players-server` to its end (not a server: a usage error or
    /// `backup`), in `folder`.
    static func run(_ arguments: [String], environment: [String: String] = [:], in folder: TemporaryFolder) throws -> (status: Int32, output: String, error: String) {
        let process = Process()
        process.executableURL = try executable()
        process.arguments = arguments
        process.environment = Self.environment(environment)
        process.currentDirectoryURL = folder.url
        return try TestSupport.run(process)
    }

    /// A request, with `Connection: close`: see ``RawHTTP``.
    func request(_ method: String, _ path: String, host: String? = nil, headers: [String: String] = [:], body: String = "",
                 timeout: TimeInterval = 10) throws -> RawHTTP.Response {
        try RawHTTP.request(port: port, method, path, host: host ?? "127.0.0.1:\(port)", headers: headers, body: body, timeout: timeout)
    }
}
