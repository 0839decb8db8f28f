import Foundation
import SyncSchema
import ServerTestSupport
import SyncServer
import TestSupport
import Testing

/// A server whose history goes back (restored from a backup by the
/// documented procedure, on both stores) or a client pointed at another
/// server's database: no client silently merges across them, and a
/// restore followed by the clients' syncs loses nothing.
@Suite struct ServerHistoryTests {
    /// Backs up the sandbox's store as Docs/Server.md says, into `file`.
    static func backUp(_ sandbox: StoreSandbox, to file: String) async throws {
        switch sandbox.kind {
        case .embedded:
            let result = try await ServerProcess.run(["backup"] + sandbox.serverArguments + [file],
                                                     environment: try sandbox.serverEnvironment, in: sandbox.folder)
            #expect(result.status == 0, "\(result.error)")
        case .postgres:
            try await runPostgresTool("pg_dump", ["--format=custom", "--dbname=\(try sandbox.postgresURLString())", "--file=\(file)"])
        }
    }

    /// Restores `file` over the sandbox's store as Docs/Server.md says,
    /// with every server on it stopped.
    static func restore(_ sandbox: StoreSandbox, from file: String) async throws {
        switch sandbox.kind {
        case .embedded:
            for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: sandbox.databasePath + suffix) }
            try FileManager.default.removeItem(atPath: sandbox.databasePath)
            try FileManager.default.copyItem(atPath: file, toPath: sandbox.databasePath)
        case .postgres:
            try await runPostgresTool("pg_restore", ["--clean", "--if-exists", "--dbname=\(try sandbox.postgresURLString())", file])
        }
    }

    /// Runs one of PostgreSQL's programs, from the newest installed
    /// version (where scripts/postgres-cluster finds `initdb`).
    @discardableResult
    static func runPostgresTool(_ name: String, _ arguments: [String]) async throws -> String {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        guard let version = versions.sorted(by: { $0.compare($1, options: .numeric) == .orderedAscending }).last else {
            throw TestFailure("PostgreSQL's programs are not installed in /usr/lib/postgresql: run scripts/postgres-cluster start")
        }
        let result = try await run("/usr/lib/postgresql/\(version)/bin/\(name)", arguments)
        guard result.status == 0 else { throw TestFailure("\(name) failed (exit status \(result.status)): \(result.error)") }
        return result.output
    }

    /// What `psql` prints for `sql` on the sandbox's database, values only.
    static func postgresOutput(_ sandbox: StoreSandbox, _ sql: String) async throws -> String {
        try await runPostgresTool("psql", ["--no-psqlrc", "--tuples-only", "--no-align", "--dbname=\(try sandbox.postgresURLString())",
                                           "--command=\(sql)"]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The uuids, names and scores of a client's players.
    static func players(_ client: CLISandbox) async throws -> Set<String> {
        let listing = try await client.run(["list", "--json"])
        return Set(try jsonLines(listing.output).map { "\($0["uuid"] ?? "") \($0["name"] ?? "") \($0["score"] ?? "")" })
    }

    /// The uuids, names and scores of a server's players.
    static func players(_ server: ServerProcess) throws -> Set<String> {
        let page = try SyncPage.players(try server.request("GET", "/v1/sync/rows?limit=5000").body)
        return Set(page.rows.map { row in
            "\(row.row.id.uuidString) \(row.row.values["name"].map { if case .text(let name) = $0 { name } else { "?" } } ?? "?") "
                + "\(row.row.values["score"].map { if case .integer(let score) = $0 { String(score) } else { "?" } } ?? "?")"
        })
    }

    @Test(arguments: StoreKind.allCases)
    func aRestoredServerMakesItsClientsPushBackWhatItLostAndNoneDiverges(_ kind: StoreKind) async throws {
        try await StoreSandbox.with(kind) { sandbox in
            var server = try ServerProcess(sandbox.serverArguments, environment: try sandbox.serverEnvironment)
            let url = "http://127.0.0.1:\(server.port)"
            let laptop = try CLISandbox(), phone = try CLISandbox()
            for client in [laptop, phone] { try await client.runChecked(["init"]) }
            try await laptop.runChecked(["add", "--name", "Arthur", "--score", "10"])
            try await laptop.runChecked(["add", "--name", "Ford", "--score", "20"])
            try await laptop.runChecked(["sync", "--url", url])
            let backup = sandbox.folder.path("backup")
            try await Self.backUp(sandbox, to: backup)

            // After the backup: the laptop creates one player and edits
            // another, which the restore will take from the server.
            try await laptop.runChecked(["add", "--name", "Zaphod", "--score", "42"])
            try await laptop.runChecked(["edit", "1", "--score", "11"])
            try await laptop.runChecked(["sync", "--url", url])
            let lost = try Self.players(server)

            #expect(try server.stop() == 0)
            try await Self.restore(sandbox, from: backup)
            server = try ServerProcess(sandbox.serverArguments, environment: try sandbox.serverEnvironment, port: server.port)
            // The restored server takes a new change, whose version the
            // laptop's cursor has already passed.
            try await phone.runChecked(["add", "--name", "Trillian", "--score", "30"])
            try await phone.runChecked(["sync", "--url", url])

            let sync = try await laptop.run(["sync", "--url", url])
            #expect(sync.status == 0, "\(sync.error)")
            #expect(sync.output.hasPrefix("""
                The server's database went back (it was restored from a backup): took a snapshot, and kept the 2 values \
                it had lost (pushed again, or in 'players conflicts').
                Synced with \(url): pushed 2, +1 ~0 -0, conflicts 0, cursor
                """), "\(sync.output)")
            #expect(try await phone.run(["sync", "--url", url]).status == 0)

            let served = try Self.players(server)
            #expect(lost.isSubset(of: served), "every value the server acknowledged before the restore is back")
            #expect(served.count == 4)
            #expect(try await Self.players(laptop) == served)
            #expect(try await Self.players(phone) == served)
            #expect(try await laptop.run(["conflicts"]).output == "No conflicts.\n")
            #expect(try server.stop() == 0)
        }
    }

    @Test func aClientRefusesAnotherServersDatabaseUntilToldAndThenTakesItsPlayers() async throws {
        let first = try ServerProcess(["--seed", "3"])
        let second = try ServerProcess(["--seed", "5"])
        let client = try CLISandbox()
        try await client.runChecked(["init"])
        try await client.runChecked(["remote", "set", "http://127.0.0.1:\(first.port)"])
        try await client.runChecked(["sync"])
        try await client.runChecked(["add", "--name", "Marvin", "--score", "1"])
        try await client.runChecked(["remote", "set", "http://127.0.0.1:\(second.port)"])
        let before = try await Self.players(client)

        // The push names the database it is meant for: refused before
        // anything is applied.
        let refused = try await client.run(["sync"])
        #expect(refused.status == 6)
        #expect(refused.error.hasPrefix("players: the server holds another database than the one this one synced with"))
        #expect(refused.error.contains("run 'players sync --allow-other-server' once"))
        #expect(try await Self.players(client) == before)
        #expect(try Self.players(second).count == 5)

        let allowed = try await client.run(["sync", "--allow-other-server"])
        #expect(allowed.status == 0, "\(allowed.error)")
        #expect(allowed.output.hasPrefix(
            "The server holds another database than the one this one synced with: its snapshot replaced the synced players.\n"))
        #expect(try await Self.players(client) == Self.players(second))
        #expect(try Self.players(second).count == 6)
        // From then on, that server is the one it syncs with.
        #expect(try await client.run(["sync"]).status == 0)
    }

    @Test func aWatchingClientStopsWhenItsServerIsReplacedByAnotherDatabase() async throws {
        var server = try ServerProcess(["--seed", "3"])
        let client = try CLISandbox()
        try await client.runChecked(["init"])
        let watcher = try WatchProcess(client, url: "http://127.0.0.1:\(server.port)")
        try watcher.waitForLines(1)
        // An in-memory server started again: another database.
        #expect(try server.stop() == 0)
        server = try ServerProcess(["--seed", "3"], port: server.port)
        #expect(try watcher.waitForExit() == 6)
        #expect(watcher.errorText.contains("players: the server holds another database than the one this one synced with"))
        #expect(try server.stop() == 0)
    }
}
