import CipherDB
import Foundation
import Players
import TestSupport

/// What the command-line tests do with a sandbox: make its database, run
/// commands that must succeed, and read or check its files.
extension CLISandbox {
    /// A new sandbox holding a copy of another one's files.
    convenience init(copying template: CLISandbox) throws {
        try self.init()
        for name in try FileManager.default.contentsOfDirectory(atPath: template.root.path) {
            try FileManager.default.copyItem(at: template.root.appendingPathComponent(name), to: root.appendingPathComponent(name))
        }
    }

    /// A new sandbox whose database holds random players: the template
    /// of crash trials.
    static func withRandomPlayers() async throws -> CLISandbox {
        let sandbox = try CLISandbox()
        try await sandbox.runChecked(["init"])
        try await sandbox.runChecked(["randomize"])
        return sandbox
    }

    /// A new sandbox whose database holds one player (id 1).
    static func withPlayer(_ name: String, score: Int) async throws -> CLISandbox {
        let sandbox = try CLISandbox()
        try await sandbox.runChecked(["init"])
        try sandbox.addPlayers([(name, score)])
        return sandbox
    }

    /// Runs a shell command line in the sandbox's home, with the built
    /// `players` first on PATH: pipes and redirections as a person types
    /// them. Standard input is empty, not a terminal.
    func runShell(_ commandLine: String) async throws -> (status: Int32, output: String, error: String) {
        let process = try makeProcess(["-c", commandLine])
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.environment?["PATH"] = try CLISandbox.executable().deletingLastPathComponent().path + ":/usr/bin:/bin"
        process.currentDirectoryURL = root
        return try await TestSupport.run(process)
    }

    /// Makes `name` in the sandbox's home with the sqlite3 shell: a
    /// plaintext database with the seeds' first schema (a GRDB app's
    /// players), then `statements` run in it; returns its path.
    func makeSeedsPlaintextDatabase(_ name: String, _ statements: String = "") async throws -> String {
        let shell = try await runShell(#"""
            sqlite3 \#(name) "CREATE TABLE player (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL, score INTEGER NOT NULL);
                \#(statements)"
            """#)
        guard shell.status == 0 else { throw TestFailure("sqlite3 could not make \(name): \(shell.error)") }
        return root.appendingPathComponent(name).path
    }

    /// Adds players as `players add` does (``AppDatabase/savePlayer(_:)``,
    /// each with its pending change), in this process: the data of a test
    /// about another command, without a process per player.
    func addPlayers(_ players: [(name: String, score: Int)]) throws {
        let queue = try keyedQueue(at: databasePath)
        defer { try? queue.close() }
        let database = try AppDatabase(queue)
        for (name, score) in players {
            var player = Player(name: name, score: score)
            try database.savePlayer(&player)
        }
    }

    /// Adds `count` players ("Player 1", …, or with another name
    /// before the number) in one SQL statement: a large database in a
    /// second or two, where `add` would take hours.
    func insertPlayers(count: Int, named name: String = "Player") throws {
        let queue = try keyedQueue(at: databasePath)
        defer { try? queue.close() }
        try queue.write { db in
            try db.execute(sql: """
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
                INSERT INTO player (uuid, name, score) SELECT printf('00000000-0000-4000-8000-%012d', i), ? || ' ' || i, i % 1000 FROM n
                """, arguments: [count, name])
        }
    }

    /// The players of a database, as "uuid name score" lines in uuid
    /// order, read with the default key file (or `keyFile`) without
    /// migrating it; throws if it does not open or is damaged.
    func players(at path: String? = nil, keyFile: String? = nil) throws -> [String] {
        let queue = try keyedQueue(at: path ?? databasePath, keyFile: keyFile)
        defer { try? queue.close() }
        return try queue.read { db in
            guard try String.fetchAll(db, sql: "PRAGMA integrity_check") == ["ok"] else {
                throw TestFailure("the database fails its integrity check")
            }
            return try String.fetchAll(db, sql: "SELECT uuid || ' ' || name || ' ' || score FROM player ORDER BY uuid")
        }
    }

    /// The changes waiting to be pushed.
    func pendingChangeCount() throws -> Int {
        let queue = try keyedQueue(at: databasePath, keyFile: nil)
        defer { try? queue.close() }
        return try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sync_outbox") ?? 0 }
    }

    /// A queue on a database of the sandbox, keyed with the default key
    /// file (or `keyFile`), set up as the app's connections are (the
    /// function of the name order keys' triggers), without migrating it.
    func keyedQueue(at path: String, keyFile: String? = nil) throws -> DatabaseQueue {
        let key = try SecretFiles.readKey(keyFile ?? keyPath)
        var configuration = Configuration()
        configuration.prepareDatabase { db in try db.useRawKey(key) }
        configuration = AppDatabase.makeConfiguration(configuration)
        return try DatabaseQueue(path: path, configuration: configuration)
    }

    /// `players verify` passes, and no temporary file is left next to the
    /// database.
    func verifyLeavesNoTemporaries(arguments: [String] = []) async throws {
        try await runChecked(["verify"] + arguments)
        try expectNoTemporaries(next: databasePath)
    }

    /// No temporary file (`.NAME.*.tmp*`) is left next to `path`.
    func expectNoTemporaries(next path: String) throws {
        let url = URL(fileURLWithPath: path)
        let prefix = ".\(url.lastPathComponent)."
        let left = try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
            .filter { $0.hasPrefix(prefix) }
        guard left.isEmpty else { throw TestFailure("temporary files left: \(left)") }
    }
}
