import Foundation
import Hummingbird
import NIOCore
import NIOFoundationCompat
import ServerTestSupport
import SyncSchema
import SyncServer
import TestSupport
import Testing

/// `GET /v1/sync/rows?since=…&wait=…`, the engine's long-poll, on both
/// stores: held until a commit through another instance, the empty delta
/// with the same cursor at the end of the wait, and the bad values
/// refused.
///
/// The long-polls' clock stands still unless a test advances it
/// (``APITestServer``): a long-poll that answers without that was not
/// answered by the end of its wait.
@Suite struct SyncLongPollTests {
    let endpoint = SyncEndpointTests()
    let schema = SyncSchema.testNotes

    /// The cursor of the engine's current state, from a delta page.
    func cursor(_ server: APITestServer) async throws -> String {
        try await endpoint.page(server.client, "/v1/sync/rows").cursor
    }

    @Test(arguments: StoreKind.allCases)
    func aLongPollWithChangesIsAnsweredAtOnce(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind, schema: schema) { server in
            let empty = try await cursor(server)
            try await endpoint.notebookWithANote(server.client)
            // The clock stands still: an answer did not wait.
            let delta = try await endpoint.page(server.client, "/v1/sync/rows?since=\(empty)&wait=30")
            #expect(delta.rows.count == 2)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aLongPollIsHeldUntilAnotherInstanceCommitsAChange(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind, schema: schema) { server in
            let engine = server.engine
            let empty = try await cursor(server)
            let otherInstance = try await server.sandbox.makeSyncStore(schema: schema)
            let poll = Task { try await endpoint.page(server.client, "/v1/sync/rows?since=\(empty)&wait=30") }
            try await waitUntil("the long-poll waiting on the engine's store") { engine.changes.waiterCount == 1 }
            let change = try endpoint.upsert("notebook", endpoint.work, ["name": .text("Work")])
            _ = try await otherInstance.applyChanges([change], at: Date())
            // The clock stands still: the commit woke it, not its wait's end.
            let delta = try await poll.value
            try await otherInstance.close()
            #expect(delta.rows.map(\.row.id) == [endpoint.work])
            #expect(delta.isComplete)
        }
    }

    /// A long-poll of some tables is held through a change of another
    /// table, and answered by a change of one of its own.
    @Test(arguments: StoreKind.allCases)
    func aLongPollOfSomeTablesIsHeldThroughAnotherTablesChange(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind, schema: schema) { server in
            let engine = server.engine
            let empty = try await cursor(server)
            let poll = Task { try await endpoint.page(server.client, "/v1/sync/rows?since=\(empty)&wait=30&tables=note") }
            try await waitUntil("the long-poll waiting on the engine's store") { engine.changes.waiterCount == 1 }
            let notebook = try endpoint.upsert("notebook", endpoint.work, ["name": .text("Work")])
            _ = try await engine.applyChanges([notebook], at: Date())
            // Woken by the notebook, it read an empty delta of notes, and
            // waits again.
            try await waitUntil("the long-poll waiting again after the notebook's commit") {
                engine.changes.waiterCount == 1 && engine.changes.latestVersion == 1
            }
            let note = try endpoint.upsert("note", endpoint.groceries, ["notebook": .uuid(endpoint.work), "title": .text("Groceries")])
            _ = try await engine.applyChanges([note], at: Date())
            let delta = try await poll.value
            #expect(delta.rows.map(\.row.id) == [endpoint.groceries])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aLongPollWithoutChangeAnswersTheEmptyDeltaWithTheSameCursor(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind, schema: schema) { server in
            let engine = server.engine
            try await endpoint.notebookWithANote(server.client)
            let now = try await cursor(server)
            let immediate = try await server.client.execute(uri: "/v1/sync/rows?since=\(now)", method: .get)
            let uri = "/v1/sync/rows?since=\(now)&wait=1"
            let poll = Task { try await server.client.execute(uri: uri, method: .get) }
            try await waitUntil("the long-poll waiting on the engine's store") { engine.changes.waiterCount == 1 }
            await server.advanceLongPollClock(by: .milliseconds(999))
            #expect(engine.changes.waiterCount == 1, "still held before its second is up")
            await server.advanceLongPollClock(by: .milliseconds(1))
            // The waiter is counted just before its timer is set: a timer set
            // after the clock moved fires at the clock's next step.
            try await waitUntil("the long-poll ended by its wait") {
                await server.advanceLongPollClock(by: .zero)
                return engine.changes.waiterCount == 0
            }
            let waited = try await poll.value
            #expect(waited.status == .ok)
            #expect(waited.body == immediate.body)
        }
    }

    /// The value of a counter of `GET /metrics`.
    func metric(_ server: APITestServer, _ name: String) async throws -> Double {
        let text = String(buffer: try await server.client.execute(uri: "/metrics", method: .get).body)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix(name + " ") }, "no \(name) in /metrics")
        return try #require(Double(line.split(separator: " ")[1]))
    }

    @Test func aWaitWithoutSinceIsRefused() async throws {
        try await APITestServer.with(.embedded, schema: schema) { server in
            let withoutSince = try await server.client.execute(uri: "/v1/sync/rows?wait=10", method: .get)
            #expect(withoutSince.status == .badRequest)
            #expect(withoutSince.errorMessage == "'wait' needs 'since': only a delta can wait for changes")
        }
    }

    @Test(arguments: ["-1", "61", "1.5", "soon", ""])
    func badWaitValuesAreRefused(_ wait: String) async throws {
        try await APITestServer.with(.embedded, schema: schema) { server in
            let response = try await server.client.execute(uri: "/v1/sync/rows?since=\(try await cursor(server))&wait=\(wait)", method: .get)
            #expect(response.status == .badRequest)
            #expect(response.errorMessage == "'wait' must be an integer from 0 to 60")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func anOldCursorIsGoneAtOnceEvenWithAWait(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind, tombstoneRetention: 1) { server in
            let player = try await server.store.insert(name: "Arthur", score: 1)
            try await server.store.delete(player.uuid)
            try await server.engine.purgeTombstones(olderThan: 1, now: Date().addingTimeInterval(10))
            // The clock stands still: an answer did not wait.
            let response = try await server.client.execute(uri: "/v1/sync/rows?since=\(server.store.cursor(0))&wait=30", method: .get)
            #expect(response.status == .gone)
        }
    }

    /// The listening connection drops: the store reconnects and the
    /// long-poll still wakes for a change committed afterwards.
    @Test func aLongPollOutlivesTheLossOfTheListeningConnection() async throws {
        try await APITestServer.with(.postgres) { server in
            let cursor = try await server.store.currentVersion()
            let poll = Task { try await server.client.execute(uri: "/v1/sync/rows?since=\(server.store.cursor(cursor))&wait=30", method: .get) }
            // Dropped once the request waits (not while it reads).
            try await waitUntil("the long-poll waiting on the store") { server.store.changes.waiterCount == 1 }
            try await server.sandbox.dropPostgresConnections()
            let otherInstance = try await server.sandbox.makeStore()
            try await otherInstance.insert(name: "Beatrix", score: 2)
            // The clock stands still: the change woke it, whether notified
            // on the new listening connection or read again on reconnecting.
            let response = try await poll.value
            try await otherInstance.close()
            let page = try PlayersRowsTests().page(response)
            #expect(page.rows.map(\.row.values["name"]) == [.text("Beatrix")])
        }
    }

    /// 50 long-polls of the same delta, woken by one commit, share one
    /// read of the engine's store and one answer; so do their next ones.
    @Test(arguments: StoreKind.allCases)
    func longPollsWokenByOneCommitShareOneReadOfTheDelta(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind, schema: schema) { server in
            let engine = server.engine
            let empty = try await cursor(server)
            let count = 50
            let polls = (0..<count).map { _ in Task { try await endpoint.page(server.client, "/v1/sync/rows?since=\(empty)&wait=30") } }
            try await waitUntil("\(count) long-polls waiting on the engine's store") { engine.changes.waiterCount == count }
            let readsBefore = try await metric(server, "players_server_delta_reads_total")
            let otherInstance = try await server.sandbox.makeSyncStore(schema: schema)
            _ = try await otherInstance.applyChanges([try endpoint.upsert("notebook", endpoint.work, ["name": .text("Work")])], at: Date())
            try await otherInstance.close()
            var cursors: Set<String> = []
            for poll in polls {
                let page = try await poll.value
                #expect(page.rows.map(\.row.id) == [endpoint.work])
                cursors.insert(page.cursor)
            }
            #expect(try await metric(server, "players_server_delta_reads_total") - readsBefore == 1)
            let next = try #require(cursors.first)
            #expect(cursors.count == 1)
            let again = (0..<count).map { _ in Task { try await server.client.execute(uri: "/v1/sync/rows?since=\(next)&wait=30", method: .get) } }
            try await waitUntil("\(count) long-polls waiting again") { engine.changes.waiterCount == count }
            #expect(try await metric(server, "players_server_delta_reads_total") - readsBefore == 2)
            _ = engine.changes.releaseAll()
            for poll in again { _ = try await poll.value }
        }
    }
}
