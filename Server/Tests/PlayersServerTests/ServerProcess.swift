import Foundation
import TestSupport

/// The built `players-server` running as a subprocess on a free loopback
/// port, in a temporary folder (its working directory), killed and
/// removed when released.
final class ServerProcess: @unchecked Sendable {
    // @unchecked: `process` is set once in init; Process itself is
    // thread-safe for the calls made here (signals, waiting, status).
    let folder: URL
    let process = Process()
    private(set) var port = 0

    /// The built executable, next to the test bundle.
    static let executable: URL = {
        var root = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { root.deleteLastPathComponent() }
        return root.appendingPathComponent(".build/debug/players-server")
    }()

    /// The environment of every run: no PLAYERS_* variable unless given.
    static func environment(_ extra: [String: String]) -> [String: String] {
        ["PATH": "/usr/bin:/bin", "LOG_LEVEL": "warning"].merging(extra) { _, new in new }
    }

    /// Starts the server with `arguments` (and `--port 0`), in `folder` if
    /// given, and waits for its "listening" line.
    init(_ arguments: [String], environment: [String: String] = [:], folder: URL? = nil) throws {
        self.folder = try folder ?? Self.makeFolder()
        process.executableURL = Self.executable
        process.arguments = arguments + ["--port", "0"]
        process.environment = Self.environment(environment)
        process.currentDirectoryURL = self.folder
        let output = self.folder.appendingPathComponent("server.out")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        _ = FileManager.default.createFile(atPath: self.folder.appendingPathComponent("server.err").path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: self.folder.appendingPathComponent("server.err"))
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
        throw ServerProcessError("players-server did not start: \(errorOutput)")
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: folder)
    }

    static func makeFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("PlayersServerTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    var errorOutput: String {
        (try? String(contentsOf: folder.appendingPathComponent("server.err"), encoding: .utf8)) ?? ""
    }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

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
    static func run(_ arguments: [String], environment: [String: String] = [:], in folder: URL) throws -> (status: Int32, output: String, error: String) {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = Self.environment(environment)
        process.currentDirectoryURL = folder
        return try TestSupport.run(process)
    }

    /// A request, with `Connection: close`: see ``RawHTTP``.
    func request(_ method: String, _ path: String, host: String? = nil, headers: [String: String] = [:], body: String = "",
                 timeout: TimeInterval = 10) throws -> RawHTTP.Response {
        try RawHTTP.request(port: port, method, path, host: host ?? "127.0.0.1:\(port)", headers: headers, body: body, timeout: timeout)
    }
}

/// Runs blocking work (sockets, waits) on a Dispatch thread, so that it
/// holds none of Swift's few cooperative threads, which the other tests
/// running at the same time need.
func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
    }
}

struct ServerProcessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
