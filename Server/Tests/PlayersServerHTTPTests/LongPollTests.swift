import Foundation
import Hummingbird
import NIOFoundationCompat
import PlayersProtocol
import PlayersServerStore
import ServerTestSupport
import TestSupport
import Testing

/// `GET /v1/players?since=…&wait=…` on both stores: at once with changes,
/// held until a commit through another instance, the empty delta with the
/// same cursor at the end of the wait, and the bad values refused.
///
/// The long-polls' clock stands still unless a test advances it
/// (``APITestServer``): a long-poll that answers without that was not
/// answered by the end of its wait.
@Suite struct LongPollTests {
    let api = PlayersAPITests()

    @Test(arguments: StoreKind.allCases)
    func aLongPollWithChangesIsAnsweredAtOnce(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind) { server in
            _ = try await server.store.insert(name: "Arthur", score: 1)
            // The clock stands still: an answer did not wait.
            let response = try await server.client.execute(uri: "/v1/players?since=\(server.store.cursor(0))&wait=30", method: .get)
            #expect(response.status == .ok)
            #expect(try api.payload(response).players.map(\.name) == ["Arthur"])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aLongPollIsHeldUntilAnotherInstanceCommitsAChange(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind) { server in
            let cursor = try await server.store.currentVersion()
            let otherInstance = try await server.sandbox.makeStore()
            let poll = Task { try await server.client.execute(uri: "/v1/players?since=\(server.store.cursor(cursor))&wait=30", method: .get) }
            try await waitUntil("the long-poll waiting on the store") { server.store.changes.waiterCount == 1 }
            _ = try await otherInstance.insert(name: "Beatrix", score: 2)
            // The clock stands still: the commit woke it, not its wait's end.
            let response = try await poll.value
            try await otherInstance.close()
            let payload = try api.payload(response)
            #expect(payload.players.map(\.name) == ["Beatrix"])
            #expect(payload.cursor == server.store.cursor(cursor + 1))
        }
    }

    /// The listening connection drops: the store reconnects and the
    /// long-poll still wakes for a change committed afterwards.
    @Test func aLongPollOutlivesTheLossOfTheListeningConnection() async throws {
        try await APITestServer.with(.postgres) { server in
            let cursor = try await server.store.currentVersion()
            let poll = Task { try await server.client.execute(uri: "/v1/players?since=\(server.store.cursor(cursor))&wait=30", method: .get) }
            // Dropped once the request waits (not while it reads).
            try await waitUntil("the long-poll waiting on the store") { server.store.changes.waiterCount == 1 }
            try await server.sandbox.dropPostgresConnections()
            let otherInstance = try await server.sandbox.makeStore()
            _ = try await otherInstance.insert(name: "Beatrix", score: 2)
            // The clock stands still: the change woke it, whether notified
            // on the new listening connection or read again on reconnecting.
            let response = try await poll.value
            try await otherInstance.close()
            #expect(response.status == .ok, "\(String(buffer: response.body))")
            #expect(try api.payload(response).players.map(\.name) == ["Beatrix"])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aLongPollWithoutChangeAnswersTheEmptyDeltaWithTheSameCursor(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind) { server in
            _ = try await server.store.insert(name: "Arthur", score: 1)
            let immediate = try await server.client.execute(uri: "/v1/players?since=\(server.store.cursor(1))", method: .get)
            let etag = try #require(immediate.headers[.eTag])
            let waited = try await longPoll(server, "/v1/players?since=\(server.store.cursor(1))&wait=1")
            #expect(waited.status == .ok)
            #expect(waited.body == immediate.body)
            #expect(waited.headers[.eTag] == immediate.headers[.eTag])
            let notModified = try await longPoll(server, "/v1/players?since=\(server.store.cursor(1))&wait=1", headers: [.ifNoneMatch: etag])
            #expect(notModified.status == .notModified)
        }
    }

    /// Sends a long-poll of `wait=1` that nothing wakes: it is held (the
    /// store counts its waiter) until the clock passes its one second.
    func longPoll(_ server: APITestServer, _ uri: String, headers: HTTPFields = [:]) async throws -> APIResponse {
        let poll = Task { try await server.client.execute(uri: uri, method: .get, headers: headers) }
        try await waitUntil("the long-poll \(uri) waiting on the store") { server.store.changes.waiterCount == 1 }
        await server.advanceLongPollClock(by: .milliseconds(999))
        #expect(server.store.changes.waiterCount == 1, "still held before its second is up")
        await server.advanceLongPollClock(by: .milliseconds(1))
        // The waiter is counted just before its timer is set: a timer set
        // after the clock moved fires at the clock's next step.
        try await waitUntil("the long-poll \(uri) ended by its wait") {
            await server.advanceLongPollClock(by: .zero)
            return server.store.changes.waiterCount == 0
        }
        return try await poll.value
    }

    @Test(arguments: StoreKind.allCases)
    func anOldCursorIsGoneAtOnceEvenWithAWait(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind, tombstoneRetention: 1) { server in
            let player = try await server.store.insert(name: "Arthur", score: 1)
            _ = try await server.store.delete(player.uuid)
            try await server.store.purgeTombstones(olderThan: 1, now: Date().addingTimeInterval(10))
            // The clock stands still: an answer did not wait.
            let response = try await server.client.execute(uri: "/v1/players?since=\(server.store.cursor(0))&wait=30", method: .get)
            #expect(response.status == .gone)
        }
    }

    @Test(arguments: ["-1", "61", "1.5", "soon", ""])
    func badWaitValuesAreRefused(_ wait: String) async throws {
        try await APITestServer.with(.embedded) { server in
            let response = try await server.client.execute(uri: "/v1/players?since=\(server.store.cursor(0))&wait=\(wait)", method: .get)
            #expect(response.status == .badRequest)
            #expect(try api.errorMessage(response) == "'wait' must be an integer from 0 to 60")
        }
    }

    @Test func aWaitWithoutSinceIsRefused() async throws {
        try await APITestServer.with(.embedded) { server in
            let response = try await server.client.execute(uri: "/v1/players?wait=10", method: .get)
            #expect(response.status == .badRequest)
            #expect(try api.errorMessage(response) == "'wait' needs 'since': only a delta can wait for changes")
        }
    }

    /// The value of a counter of `GET /metrics`.
    func metric(_ server: APITestServer, _ name: String) async throws -> Double {
        let text = String(buffer: try await server.client.execute(uri: "/metrics", method: .get).body)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix(name + " ") }, "no \(name) in /metrics")
        return try #require(Double(line.split(separator: " ")[1]))
    }

    /// The commit wakes every long-poll at once; they and the requests
    /// that follow ask for the same delta: one read of the store each time.
    @Test(arguments: StoreKind.allCases)
    func longPollsWokenByOneCommitShareOneReadOfTheDelta(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind) { server in
            let cursor = server.store.cursor(try await server.store.currentVersion())
            let count = 50
            let polls = (0..<count).map { _ in
                Task { try await server.client.execute(uri: "/v1/players?since=\(cursor)&wait=30", method: .get) }
            }
            try await waitUntil("\(count) long-polls waiting on the store") { server.store.changes.waiterCount == count }
            let readsBefore = try await metric(server, "players_server_delta_reads_total")
            let otherInstance = try await server.sandbox.makeStore()
            _ = try await otherInstance.insert(name: "Beatrix", score: 2)
            try await otherInstance.close()
            var cursors: Set<String> = []
            for poll in polls {
                let payload = try api.payload(try await poll.value)
                #expect(payload.players.map(\.name) == ["Beatrix"])
                cursors.insert(try #require(payload.cursor))
            }
            #expect(try await metric(server, "players_server_delta_reads_total") - readsBefore == 1)
            // Their next long-polls, from the new cursor, again share one.
            let next = try #require(cursors.first)
            #expect(cursors.count == 1)
            let again = (0..<count).map { _ in
                Task { try await server.client.execute(uri: "/v1/players?since=\(next)&wait=30", method: .get) }
            }
            try await waitUntil("\(count) long-polls waiting again") { server.store.changes.waiterCount == count }
            #expect(try await metric(server, "players_server_delta_reads_total") - readsBefore == 2)
            _ = server.store.changes.releaseAll()
            for poll in again { _ = try await poll.value }
        }
    }
}
