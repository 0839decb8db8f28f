import CipherDB
import CipherSync
import Foundation
import Players
import PlayersSync
import SyncEngine
import TestSupport
import ServerTestSupport
import Testing

/// What one sync may hold, for how long, and what it stores, against
/// hostile servers: past each limit the sync fails with a clear error and
/// the database is left as it was.
@Suite struct SyncLimitTests {
    /// A server whose snapshot never ends: each page links to the next and
    /// holds `fillerBytes` of padding (white space: a page has no key of
    /// its own to pad with); from request `stallingFrom` on (if given),
    /// the answer is held until the server stops.
    func endlessSnapshot(fillerBytes: Int = 0, stallingFrom: Int? = nil) throws -> ScriptedHTTPServer {
        let filler = String(repeating: " ", count: fillerBytes)
        return try ScriptedHTTPServer { _, number in
            let page = #"{"protocolVersion":1,"kind":"snapshot","complete":false,"cursor":"\#(ScriptedCursor.at(9))","next":"/v1/sync/rows?tables=player&page=\#(number + 1)",\#(filler)"rows":[],"tombstones":[]}"#
            return number >= (stallingFrom ?? .max) ? [.holdUntilStopped] : .json(page)
        }
    }

    /// A database with one synced player, and its content.
    func syncedDatabase() async throws -> (ClientDatabase, String) {
        let database = try ClientDatabase()
        let page = SyncFailureTests.BadServer.page(SyncFailureTests.BadServer.player())
        let good = try ScriptedHTTPServer { _, _ in .json(page) }
        defer { good.stop() }
        _ = try await database.client(URL(string: good.baseURL)!).sync()
        return (database, try database.contentChecksum())
    }

    @Test func theBytesOfAllPagesTogetherAreCapped() async throws {
        let server = try endlessSnapshot(fillerBytes: 200_000)
        defer { server.stop() }
        let (database, before) = try await syncedDatabase()
        var client = database.client(URL(string: server.baseURL)!)
        client.maximumBytes = 1024 * 1024
        do {
            _ = try await client.sync(full: true)
            Issue.record("the sync succeeded")
        } catch {
            #expect(error as? SyncError == .tooLarge)
            #expect("\(error)" == "the server sent more than one sync may hold (more than 1 MiB at page 6): check the URL, or allow a larger sync")
        }
        #expect(server.requests.count == 6)
        #expect(try database.contentChecksum() == before)
    }

    @Test func thePageLimitCountsTheCatchUpDeltaOfASnapshot() async throws {
        let server = try ScriptedHTTPServer { request, _ in
            let kind = request.path.contains("since=") ? "delta" : "snapshot"
            let isFirst = !request.path.contains("page=2")
            let next = isFirst
                ? #""next":"\#(request.path.contains("since=") ? "/v1/sync/rows?tables=player&since=9&page=2" : "/v1/sync/rows?tables=player&page=2")","#
                : ""
            return .json(#"{"protocolVersion":1,"kind":"\#(kind)","complete":\#(!isFirst),"cursor":"\#(ScriptedCursor.at(9))",\#(next)"rows":[],"tombstones":[]}"#)
        }
        defer { server.stop() }
        let (database, before) = try await syncedDatabase()
        var client = database.client(URL(string: server.baseURL)!)
        client.maximumPages = 3
        await #expect(throws: SyncError.tooLarge) { try await client.sync(full: true) }
        #expect(server.requests.map(\.path) == [
            "/v1/sync/rows?tables=player", "/v1/sync/rows?tables=player&page=2", "/v1/sync/rows?tables=player&since=\(ScriptedCursor.at(9))",
        ])
        #expect(try database.contentChecksum() == before)
    }

    /// The deadline runs on a clock the test advances once the second
    /// page is under way; that page never comes (the server holds it
    /// until it stops, after the sync ends), so the sync can end only by
    /// cancelling the transfer under way.
    @Test(.hangGuard) func aSyncThatOutlastsItsDeadlineIsAbandoned() async throws {
        let server = try endlessSnapshot(stallingFrom: 1)
        defer { server.stop() }
        let (database, before) = try await syncedDatabase()
        let clock = ManualClock()
        var client = database.client(URL(string: server.baseURL)!)
        client.maximumDuration = 1
        client.clock = clock
        let sync = Task { [client] in try await client.sync(full: true) }
        try await waitUntil("the second page is asked for") { server.requests.count == 2 }
        try await clock.waitForSleepers(1)
        #expect(clock.sleeperDeadlines == [ManualClock.Instant(offset: .seconds(1))])
        clock.advance(by: .seconds(1))
        do {
            _ = try await sync.value
            Issue.record("the sync succeeded")
        } catch {
            #expect(error as? SyncError == .deadlineExceeded)
            #expect("\(error)" == "the sync did not finish within its deadline (1 s): try again later, or allow it longer")
        }
        // The cancelled request is not tried again.
        #expect(server.requests.count == 2)
        #expect(try database.contentChecksum() == before)
    }

    @Test func anOverlongETagIsNotStored() async throws {
        let page = SyncFailureTests.BadServer.page(SyncFailureTests.BadServer.player())
        let server = try ScriptedHTTPServer { _, _ in .json(page, headers: ["ETag": "\"" + String(repeating: "e", count: 2000) + "\""]) }
        defer { server.stop() }
        let database = try ClientDatabase()
        _ = try await database.client(URL(string: server.baseURL)!).sync()
        let position = try await database.appDatabase.reader.read { db in try db.syncPosition() }
        #expect(position.cursor == ScriptedCursor.at(30))
        #expect(position.etag == nil)
    }

    /// Cursors that an older version stored: longer than the limit, or
    /// not of this protocol's form.
    @Test(arguments: [String(repeating: "7", count: 2000), "v7-abc"])
    func aStoredCursorThatCannotBeSentIsNotAndASnapshotReplacesIt(_ storedCursor: String) async throws {
        let player = SyncFailureTests.BadServer.player()
        let server = try ScriptedHTTPServer { _, _ in .json(SyncFailureTests.BadServer.page(player, extra: #""cursor":"\#(ScriptedCursor.at(31))","#)) }
        defer { server.stop() }
        let queue = try DatabaseQueue()
        let appDatabase = try AppDatabase(queue)
        let baseURL = URL(string: server.baseURL)!
        try await queue.write { db in
            try db.execute(sql: "UPDATE sync_state SET endpoint = ?, cursor = ? WHERE id = 1",
                           arguments: [AppDatabase.playersEndpoint(baseURL: baseURL).absoluteString, storedCursor])
        }
        let report = try await appDatabase.syncClient(baseURL: baseURL, transport: fastTransport()).sync()
        #expect(report.kind == .snapshot)
        #expect(server.requests.map(\.path) == ["/v1/sync/rows?tables=player"])
        let position = try await queue.read { db in try db.syncPosition() }
        #expect(position.cursor == ScriptedCursor.at(31))
    }

    @Test func theCommandsDeadlineAndSizeOptionsEndASyncWithExitCodeFive() async throws {
        // Its second page never comes: only the deadline ends the sync.
        let slow = try endlessSnapshot(stallingFrom: 1)
        defer { slow.stop() }
        let big = try endlessSnapshot(fillerBytes: 300_000)
        defer { big.stop() }
        let sandbox = try CLISandbox()
        // Nothing to push: these servers answer pulls only.
        _ = try await sandbox.run(["init"])
        // Pages are staged in the database before each limit is met: its
        // file changes, its content does not.
        let before = try contentChecksum(sandbox)

        // --deadline: the older name of --timeout.
        let late = try await sandbox.run(["sync", "--url", slow.baseURL, "--deadline", "1", "--quiet"])
        #expect(late.status == 5)
        #expect(late.error == "players: the sync did not finish within its --timeout (1 s): try again later, or give a longer --timeout; the database was left unchanged\n")
        let large = try await sandbox.run(["sync", "--url", big.baseURL, "--max-size", "1", "--quiet"])
        #expect(large.status == 5)
        #expect(large.error == "players: the server sent more than one sync may hold (more than 1 MiB at page 4): check the URL, or give a larger --max-size; the database was left unchanged\n")
        #expect(try contentChecksum(sandbox) == before)
    }

    /// A server that never answers (it holds the answer until it stops,
    /// after the command), and one that answers 503 with a `Retry-After`
    /// of 30 s each time: `--timeout 5` ends the command, connection,
    /// retries and their waits together. The `players` process keeps its
    /// real clock; the test counts what happened, not how long it took.
    @Test(.hangGuard, arguments: [[ScriptedHTTPServer.Step.holdUntilStopped], .response(503, headers: ["Retry-After": "30"])])
    func theTimeoutBoundsTheWholeCommand(_ answer: [ScriptedHTTPServer.Step]) async throws {
        let server = try ScriptedHTTPServer { _, _ in answer }
        defer { server.stop() }
        let sandbox = try CLISandbox()
        _ = try await sandbox.run(["init"])
        let before = sandbox.databaseSnapshot()

        let result = try await sandbox.run(["sync", "--url", server.baseURL, "--timeout", "5", "--quiet"])
        #expect(result.status == 5)
        #expect(result.error == "players: the sync did not finish within its --timeout (5 s): try again later, or give a longer --timeout; the database was left unchanged\n")
        // One attempt: a timeout of each request would have made three
        // (each after 5 s), and the wait of 30 s asked for is cut short by
        // the deadline, not waited out and followed by a second request.
        #expect(server.requests.count == 1, "\(server.requests.map(\.path))")
        #expect(sandbox.databaseSnapshot() == before)
    }

    @Test(arguments: [["--timeout", "0"], ["--timeout", "86401"], ["--timeout", "nan"], ["--max-size", "0"], ["--max-size", "65537"]])
    func outOfRangeLimitsAreUsageErrors(_ option: [String]) async throws {
        let sandbox = try CLISandbox()
        _ = try await sandbox.run(["init"])
        let before = sandbox.databaseSnapshot()
        let result = try await sandbox.run(["sync", "--url", "http://127.0.0.1:9"] + option)
        #expect(result.status == 2)
        #expect(result.error.hasPrefix("players: \(option[0]) must be"))
        #expect(sandbox.databaseSnapshot() == before)
    }
}
