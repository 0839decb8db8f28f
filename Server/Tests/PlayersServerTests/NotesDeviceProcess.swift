import CipherDB
import Foundation
import TestSupport
import Testing

/// A device of Notes: the built `notes` run as a process on its own
/// encrypted database, with a passphrase file, in a folder of its own, of
/// one user: its `init` takes the user's recovery key file
/// (`USER.recovery`, written by their first device) and its `sync` their
/// token file (`USER.token`), unless the arguments name others.
struct NotesDeviceProcess: Sendable {
    let folder: TemporaryFolder
    let name: String
    let user: String

    init(_ name: String, in folder: TemporaryFolder, user: String = "alice") throws {
        self.folder = folder
        self.name = name
        self.user = user
        // The devices of a test share one passphrase file.
        guard FileManager.default.createFile(atPath: folder.path("pass"), contents: Data("notes secret\n".utf8),
                                             attributes: [.posixPermissions: 0o600]) else {
            throw TestFailure("cannot write the passphrase file \(folder.path("pass"))")
        }
    }

    /// `notes --database NAME.db --passphrase-file pass ARGUMENTS`, not
    /// started.
    func makeProcess(_ arguments: [String]) throws -> ChildProcess {
        var arguments = arguments
        if arguments.first == "init", !arguments.contains("--recovery-key-file") { arguments += ["--recovery-key-file", "\(user).recovery"] }
        if arguments.first == "sync", !arguments.contains("--token-file") { arguments += ["--token-file", "\(user).token"] }
        let process = ChildProcess()
        process.executableURL = try BuiltProducts.url("notes")
        process.arguments = ["--database", "\(name).db", "--passphrase-file", "pass"] + arguments
        process.environment = ["PATH": "/usr/bin:/bin"]
        process.currentDirectoryURL = folder.url
        return process
    }

    /// Runs `notes --database NAME.db --passphrase-file pass ARGUMENTS`,
    /// `input` on its standard input.
    func run(_ arguments: [String], input: String? = nil) async throws -> ProcessResult {
        try await TestSupport.run(try makeProcess(arguments), input: input)
    }

    /// Runs `notes`, throwing unless it succeeds; its standard output.
    @discardableResult
    func runChecked(_ arguments: [String]) async throws -> String {
        let result = try await run(arguments)
        guard result.status == 0 else { throw TestFailure("notes \(arguments.joined(separator: " ")) exited with \(result.status): \(result.error)") }
        return result.output
    }

    /// The rows a pull staged and has not merged yet, read through a
    /// connection of the test's own.
    func stagedRows() throws -> Int {
        try withDatabase { queue in
            try queue.read { db in
                try ["sync_stage_notebook", "sync_stage_note"].reduce(0) { count, table in
                    try count + (db.tableExists(table) ? Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0 : 0)
                }
            }
        }
    }

    /// Runs `body` on a connection of the test's own to the device's
    /// database: what another program, or an older version, would do.
    func withDatabase<T>(_ body: (DatabaseQueue) throws -> T) throws -> T {
        var configuration = Configuration()
        DatabaseKeySource.passphrase { Data("notes secret".utf8) }.configure(&configuration)
        // The device may be committing (a watching `notes sync --watch`):
        // wait for its lock as the app's own commands do, not fail.
        configuration.busyMode = .timeout(10)
        let queue = try DatabaseQueue(path: folder.path("\(name).db"), configuration: configuration)
        defer { try? queue.close() }
        return try body(queue)
    }

    /// The id that an `add` prints on its last line.
    func add(_ arguments: [String]) async throws -> String {
        let output = try await runChecked(arguments)
        guard let id = output.split(separator: "\n").last.map(String.init), UUID(uuidString: id) != nil else {
            throw TestFailure("notes \(arguments.joined(separator: " ")) printed no id on its last line: \(output)")
        }
        return id
    }

    /// `list --json`, decoded.
    func list() async throws -> Listing {
        try JSONDecoder().decode(Listing.self, from: Data(try await runChecked(["list", "--json"]).utf8))
    }

    struct Listing: Decodable, Equatable {
        struct Notebook: Decodable, Equatable { var id, name: String }
        struct Note: Decodable, Equatable { var id, notebook, title: String; var body: String? }
        var notebooks: [Notebook]
        var notes: [Note]
    }
}
