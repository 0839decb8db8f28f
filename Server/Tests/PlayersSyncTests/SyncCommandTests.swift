import CipherDB
import Foundation
import Players
import PlayersOnServer
import TestSupport
import Testing

/// `players sync` and `players remote`, run as subprocesses against the
/// real server on loopback.
@Suite struct SyncCommandTests {
    /// The sandbox's database, opened in this process with its key file.
    func open(_ sandbox: CLISandbox) throws -> AppDatabase {
        try openDatabase(of: sandbox)
    }

    @Test func syncThenListShowsTheServersPlayers() async throws {
        try await withLiveServer(seed: 25) { store, url in
            let sandbox = try CLISandbox()
            #expect(try await sandbox.run(["init"]).status == 0)
            let first = try await sandbox.run(["sync", "--url", url.absoluteString])
            #expect(first.status == 0, "\(first.error)")
            #expect(first.output == "Synced with \(url.absoluteString): pushed 0, +25 ~0 -0, conflicts 0, cursor 25.\n")
            let list = try await sandbox.run(["list"])
            #expect(list.output.split(separator: "\n").count == 26)

            _ = try await store.delete(try await serverPlayers(store)[0].uuid)
            _ = try await store.insert(name: "Zaphod", score: 42)
            let second = try await sandbox.run(["sync", "--url", url.absoluteString])
            #expect(second.output == "Synced with \(url.absoluteString): pushed 0, +1 ~0 -1, conflicts 0, cursor 27.\n")
            #expect(try await entries(open(sandbox)) == serverPlayers(store))
        }
    }

    @Test func aStoredRemoteMakesAPlainSyncWork() async throws {
        try await withLiveServer(seed: 3) { store, url in
            let sandbox = try CLISandbox()
            _ = try await sandbox.run(["init"])
            #expect(try await sandbox.run(["remote"]).output == "No remote is set: run 'players remote set URL'.\n")
            let noURL = try await sandbox.run(["sync"])
            #expect(noURL.status == 2)
            #expect(noURL.error.contains("give --url, or run 'players remote set URL'"))

            #expect(try await sandbox.run(["remote", "set", url.absoluteString]).status == 0)
            #expect(try await sandbox.run(["remote", "show"]).output == url.absoluteString + "\n")
            let sync = try await sandbox.run(["sync"])
            #expect(sync.status == 0, "\(sync.error)")
            #expect(sync.output.contains("+3 ~0 -0"))
            let info = try await sandbox.run(["info", "--json"])
            let report = try JSONSerialization.jsonObject(with: Data(info.output.utf8)) as? [String: Any]
            #expect(report?["remoteURL"] as? String == url.absoluteString)
            #expect(report?["syncCursor"] as? String == store.cursor(3))
            #expect(report?["syncEndpoint"] as? String == url.absoluteString + "/v1/sync/rows?tables=player")
        }
    }

    @Test func urlsWithCredentialsOrOtherSchemesAreUsageErrors() async throws {
        let sandbox = try CLISandbox()
        _ = try await sandbox.run(["init"])
        let before = sandbox.databaseSnapshot()
        for url in ["http://user:hunter2@127.0.0.1:8080", "ftp://127.0.0.1", "not a url", "http://127.0.0.1:8080?x=1"] {
            let set = try await sandbox.run(["remote", "set", url])
            #expect(set.status == 2, "\(url)")
            let sync = try await sandbox.run(["sync", "--url", url])
            #expect(sync.status == 2, "\(url)")
            #expect(!set.error.contains("hunter2") && !sync.error.contains("hunter2"))
        }
        #expect(sandbox.databaseSnapshot() == before)
    }

    /// The players and the outbox's entries, without when they were sent
    /// and the values they were sent with.
    func queuedContent(_ sandbox: CLISandbox) throws -> String {
        let appDatabase = try open(sandbox)
        defer { try? appDatabase.close() }
        return try appDatabase.reader.read { db in
            let players = try Row.fetchAll(db, sql: "SELECT * FROM player ORDER BY id").map(\.description)
            let queued = try Row.fetchAll(db, sql: """
                SELECT id, mutation_id, table_name, row_id, operation, changed_columns, base_version, created_at FROM sync_outbox ORDER BY id
                """)
            return (players + queued.map(\.description)).joined(separator: "\n")
        }
    }

    /// The rows and tombstones that the sync engine holds staged in the
    /// sandbox's database, read on a read-only connection of its own
    /// (while a `players` process may be writing).
    func stagedCount(_ sandbox: CLISandbox) throws -> Int {
        // The key first (its statements come before any other).
        var configuration = Configuration()
        configuration.readonly = true
        let key = try SecretFiles.readKey(sandbox.keyPath)
        DatabaseKeySource.rawKey { key }.configure(&configuration)
        configuration = AppDatabase.makeConfiguration(configuration)
        let queue = try DatabaseQueue(path: sandbox.databasePath, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sync_stage_player") ?? 0 }
    }

    @Test func anUnreachableServerExitsWithFiveAndChangesNothing() async throws {
        let sandbox = try CLISandbox()
        _ = try await sandbox.run(["init"])
        _ = try await sandbox.run(["add", "--name", "Arthur", "--score", "1"])
        let before = try queuedContent(sandbox)
        // Bound and never listening: no server of another test can take it.
        let refusing = try RefusingPort()
        defer { refusing.close() }
        let result = try await sandbox.run(["sync", "--url", refusing.baseURL, "--quiet"])
        #expect(result.status == 5)
        #expect(result.error.hasPrefix("players: cannot connect to the server"))
        #expect(result.error.contains("the database was left unchanged"))
        #expect(result.error.split(separator: "\n").count == 1)
        // The players, and the change waiting to be pushed with its
        // mutation id and values; only its mark "sent" may have been set.
        #expect(try queuedContent(sandbox) == before)
    }

    /// Ctrl-C (or SIGTERM) during a sync abandons it as a failure does:
    /// exit 128 + the signal, one line, the staged page dropped, the
    /// database as it was.
    @Test(.hangGuard, arguments: [SIGINT, SIGTERM])
    func anInterruptedSyncEmptiesItsStagingAndExitsWithTheSignal(_ signal: Int32) async throws {
        let sandbox = try CLISandbox()
        _ = try await sandbox.run(["init"])
        let before = try queuedContent(sandbox)
        // A first page, staged; the second never comes.
        let firstPage = SyncFailureTests.BadServer.page(
            SyncFailureTests.BadServer.player(), extra: #""cursor":"\#(ScriptedCursor.at(30))","next":"/v1/sync/rows?tables=player&page=2","#, complete: false)
        let server = try ScriptedHTTPServer { _, number in number == 0 ? .json(firstPage) : [.holdUntilStopped] }
        defer { server.stop() }
        let process = try sandbox.makeProcess(["sync", "--url", server.baseURL, "--quiet"])
        let sync = Task { try await run(process) }
        // At least two requests: a held one is abandoned as a stall after
        // 15 s and retried (the same page, staging kept), which a test
        // starved of CPU for that long sees as a third.
        try await waitUntil("the sync is staging and waiting for the server") {
            server.requests.count >= 2 && (try? stagedCount(sandbox)) == 1
        }
        kill(process.processIdentifier, signal)
        let result = try await sync.value
        #expect(result.status == 128 + signal, "\(result.error)")
        #expect(result.error == "players: interrupted: the sync was abandoned and nothing was merged; the next 'players sync' takes it up\n")
        #expect(try stagedCount(sandbox) == 0)
        #expect(try queuedContent(sandbox) == before)
    }

    @Test func theTokenComesFromAFileOrTheEnvironmentAndIsNeverPrinted() async throws {
        let token = "server-token-4f1c9a"
        try await withLiveServer(seed: 2, token: token) { _, url in
            let sandbox = try CLISandbox()
            _ = try await sandbox.run(["init"])
            let refused = try await sandbox.run(["sync", "--url", url.absoluteString])
            #expect(refused.status == 5)
            #expect(refused.error.contains("HTTP 401"))

            let openFile = try sandbox.writeSecret("open-token", token, mode: 0o644)
            let exposed = try await sandbox.run(["sync", "--url", url.absoluteString, "--token-file", openFile])
            #expect(exposed.status == 1)
            #expect(exposed.error.contains("chmod 600"))

            let file = try sandbox.writeSecret("token", token + "\n")
            let fromFile = try await sandbox.run(["sync", "--url", url.absoluteString, "--token-file", file])
            #expect(fromFile.status == 0, "\(fromFile.error)")
            let fromEnvironment = try await sandbox.run(["sync", "--url", url.absoluteString, "--full"], environment: ["PLAYERS_TOKEN": token])
            #expect(fromEnvironment.status == 0, "\(fromEnvironment.error)")
            for result in [refused, exposed, fromFile, fromEnvironment] {
                #expect(!result.output.contains(token) && !result.error.contains(token))
            }
        }
    }

    /// Read with replacement characters, two different binary files would
    /// be the same token.
    @Test func aTokenFileThatIsNotUTF8IsRefused() async throws {
        let sandbox = try CLISandbox()
        _ = try await sandbox.run(["init"])
        let file = try sandbox.writeSecret("token", bytes: Data([0x74, 0x6F, 0xFF, 0x6B]))
        let before = sandbox.databaseSnapshot()
        let refusing = try RefusingPort()
        defer { refusing.close() }
        let result = try await sandbox.run(["sync", "--url", refusing.baseURL, "--token-file", file])
        #expect(result.status == 1)
        #expect(result.error == "players: the token file \(file) is not UTF-8 text: write the token in it as text\n")
        #expect(sandbox.databaseSnapshot() == before)
    }

    @Test func aTokenEchoedByTheServerIsHiddenInTheError() async throws {
        let token = "server-token-77aa"
        let server = try ScriptedHTTPServer.echoingAuthorization()
        defer { server.stop() }
        let sandbox = try CLISandbox()
        _ = try await sandbox.run(["init"])
        let result = try await sandbox.run(["sync", "--url", server.baseURL], environment: ["PLAYERS_TOKEN": token])
        #expect(result.status == 5)
        #expect(result.error.contains("HTTP 403: Bearer <hidden> is not valid"))
        #expect(!result.error.contains(token))
    }

    @Test func dryRunAndJSONReport() async throws {
        try await withLiveServer(seed: 3) { _, url in
            let sandbox = try CLISandbox()
            _ = try await sandbox.run(["init"])
            // The snapshot is staged in the database, then dropped: its
            // content stays.
            let before = try contentChecksum(sandbox)
            let result = try await sandbox.run(["sync", "--url", url.absoluteString, "--dry-run", "--json"])
            #expect(result.status == 0, "\(result.error)")
            let report = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
            #expect(report?["dryRun"] as? Bool == true)
            #expect(report?["inserted"] as? Int == 3)
            #expect(report?["kind"] as? String == "snapshot")
            #expect(try contentChecksum(sandbox) == before)
        }
    }

    /// Every field of Docs/Sync.md's `--json` list, in every outcome: a
    /// dry run, a snapshot, an answer with nothing new; and the cursor of
    /// the dry run is the one the real sync stores.
    @Test func theJSONReportHasOneShapeInEveryOutcome() async throws {
        try await withLiveServer(seed: 3) { store, url in
            let sandbox = try CLISandbox()
            _ = try await sandbox.run(["init"])
            var reports: [[String: Any]] = []
            for flags in [["--dry-run"], [], []] {
                let result = try await sandbox.run(["sync", "--url", url.absoluteString, "--json"] + flags)
                #expect(result.status == 0, "\(result.error)")
                reports.append(try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]))
            }
            let fields: Set = ["pushed", "conflicts", "pending", "kind", "upToDate", "dryRun", "inserted", "updated", "deleted",
                               "unchanged", "requeued", "refusedRows", "historyChange", "repaired", "cursorBefore", "cursorAfter", "pages",
                               "bytesReceived", "durationSeconds"]
            for report in reports { #expect(Set(report.keys) == fields) }
            #expect(reports.map { $0["kind"] as? String } == ["snapshot", "snapshot", "delta"])
            #expect(reports[2]["inserted"] as? Int == 0 && reports[2]["cursorBefore"] as? String == store.cursor(3))
            #expect(reports[0]["cursorBefore"] is NSNull)
            #expect(reports[0]["cursorAfter"] as? String == store.cursor(3) && reports[1]["cursorAfter"] as? String == store.cursor(3))
            #expect(reports.allSatisfy { $0["historyChange"] is NSNull && $0["requeued"] as? Int == 0 && $0["repaired"] is NSNull })
        }
    }

    @Test func aSyncKilledInsideItsTransactionLeavesTheOldState() async throws {
        try await withLiveServer(seed: 10) { store, url in
            let sandbox = try CLISandbox()
            _ = try await sandbox.run(["init"])
            #expect(try await sandbox.run(["sync", "--url", url.absoluteString]).status == 0)
            let before = try contentChecksum(sandbox)
            let players = try await serverPlayers(store)
            _ = try await store.update(players[1].uuid, score: 7)
            _ = try await store.delete(players[0].uuid)
            _ = try await store.insert(name: "Zaphod", score: 42)

            let marker = sandbox.root.appendingPathComponent("paused").path
            let process = try sandbox.makeProcess(["sync", "--url", url.absoluteString],
                                              environment: ["PLAYERS_TEST_PAUSE_IN_SYNC_MERGE": marker])
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            try await waitUntil("the sync pauses inside its merge") { FileManager.default.fileExists(atPath: marker) }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal)
            // The killed process leaves its staged delta (a change, a
            // deletion, an insertion), which the next sync empties.
            #expect(try stagedCount(sandbox) == 3)

            let reopened = try open(sandbox)
            #expect(try await reopened.reader.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") } == ["ok"])
            #expect(try contentChecksum(reopened) == before)

            let next = try await sandbox.run(["sync", "--url", url.absoluteString])
            #expect(next.status == 0, "\(next.error)")
            #expect(next.output.contains("+1 ~1 -1"))
            #expect(try entries(reopened) == (try await serverPlayers(store)))
            #expect(try stagedCount(sandbox) == 0)
        }
    }
}
