import Foundation

/// A temporary home for one test: XDG folders and the temporary folder
/// (`TMPDIR`) inside it, so that the real ones are never touched and what
/// a killed process leaves there goes with the sandbox.
public final class CLISandbox: Sendable {
    private let folder: TemporaryFolder

    public init() throws {
        folder = try TemporaryFolder()
        try FileManager.default.createDirectory(at: temporaryFolder, withIntermediateDirectories: true)
    }

    /// The sandbox's home, removed with the sandbox.
    public var root: URL { folder.url }

    public var databasePath: String { root.appendingPathComponent("data/players/players.db").path }
    public var keyPath: String { root.appendingPathComponent("config/players/key").path }
    /// The processes' `TMPDIR`, where a sync stages its pages.
    public var temporaryFolder: URL { root.appendingPathComponent("tmp") }

    /// The built `players` executable.
    public static func executable() throws -> URL {
        try BuiltProducts.url("players")
    }

    /// Runs `players` with a clean environment (no PLAYERS_* variables
    /// unless given), standard input from `input` (not a terminal). The
    /// wait is on a thread of its own (``TestSupport/run(_:input:onOutput:)``).
    public func run(_ arguments: [String], environment extra: [String: String] = [:], input: String = "") async throws -> ProcessResult {
        try await TestSupport.run(makeProcess(arguments, environment: extra), input: input)
    }

    /// Runs `players`, and throws unless it succeeds.
    public func runChecked(_ arguments: [String]) async throws {
        let result = try await run(arguments)
        guard result.status == 0 else {
            throw TestFailure("players \(arguments.first ?? "") exited with \(result.status): \(result.error)")
        }
    }

    /// A `players` process with a clean environment (no PLAYERS_*
    /// variables unless given), not started.
    public func makeProcess(_ arguments: [String], environment extra: [String: String] = [:]) throws -> ChildProcess {
        let process = ChildProcess()
        process.executableURL = try Self.executable()
        process.arguments = arguments
        var environment = ["HOME": root.path,
                           "XDG_DATA_HOME": root.appendingPathComponent("data").path,
                           "XDG_CONFIG_HOME": root.appendingPathComponent("config").path,
                           "TMPDIR": temporaryFolder.path,
                           "PATH": "/usr/bin:/bin"]
        environment.merge(extra) { _, new in new }
        process.environment = environment
        return process
    }

    /// Writes a secret file with the given mode.
    public func writeSecret(_ name: String, _ content: String, mode: Int = 0o600) throws -> String {
        try writeSecret(name, bytes: Data(content.utf8), mode: mode)
    }

    /// Writes a secret file of any bytes, UTF-8 or not, with the given mode.
    public func writeSecret(_ name: String, bytes: Data, mode: Int = 0o600) throws -> String {
        let path = root.appendingPathComponent(name).path
        guard FileManager.default.createFile(atPath: path, contents: bytes, attributes: [.posixPermissions: mode]) else {
            throw POSIXError(.EIO)
        }
        return path
    }

    /// The bytes of the database files, to prove they did not change.
    public func databaseSnapshot() -> [Data] {
        databaseFileBytes(databasePath)
    }
}

/// The bytes of a database file and of its WAL (empty when absent).
public func databaseFileBytes(_ path: String) -> [Data] {
    ["", "-wal"].map { suffix in
        (try? Data(contentsOf: URL(fileURLWithPath: path + suffix))) ?? Data()
    }
}
