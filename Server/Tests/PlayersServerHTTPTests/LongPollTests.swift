import Foundation
import Hummingbird
import HummingbirdTesting
import NIOFoundationCompat
import PlayersProtocol
import PlayersServerStore
import ServerTestSupport
import TestSupport
import Testing

/// `GET /v1/players?since=…&wait=…` on both stores: at once with changes,
/// held until a commit through another instance, the empty delta with the
/// same cursor at the end of the wait, and the bad values refused.
@Suite struct LongPollTests {
    let api = PlayersAPITests()

    @Test(arguments: StoreKind.allCases)
    func aLongPollWithChangesIsAnsweredAtOnce(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind) { server in
            _ = try await server.store.insert(name: "Arthur", score: 1)
            let start = ContinuousClock.now
            let response = try await server.client.execute(uri: "/v1/players?since=0&wait=30", method: .get)
            // Well before the wait's end, on a machine busy with other tests.
            #expect(ContinuousClock.now - start < .seconds(15))
            #expect(response.status == .ok)
            #expect(try api.payload(response).players.map(\.name) == ["Arthur"])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aLongPollIsHeldUntilAnotherInstanceCommitsAChange(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind) { server in
            let cursor = try await server.store.currentVersion()
            let otherInstance = try await server.sandbox.makeStore()
            let start = ContinuousClock.now
            let writer = Task {
                try await Task.sleep(for: .seconds(1))
                _ = try await otherInstance.insert(name: "Beatrix", score: 2)
                return ContinuousClock.now
            }
            let response = try await server.client.execute(uri: "/v1/players?since=\(cursor)&wait=30", method: .get)
            let answered = ContinuousClock.now
            let written = try await writer.value
            try await otherInstance.close()
            #expect(answered - start >= .seconds(1), "held until the change")
            #expect(answered - written < .seconds(10), "answered soon after the commit, well before the 30 s wait")
            let payload = try api.payload(response)
            #expect(payload.players.map(\.name) == ["Beatrix"])
            #expect(payload.cursor == String(cursor + 1))
        }
    }

    /// The listening connection drops: the store reconnects and the
    /// long-poll still wakes for a change committed afterwards.
    @Test func aLongPollOutlivesTheLossOfTheListeningConnection() async throws {
        try await APITestServer.with(.postgres) { server in
            let cursor = try await server.store.currentVersion()
            let poll = Task { try await server.client.execute(uri: "/v1/players?since=\(cursor)&wait=30", method: .get) }
            // Dropped once the request waits (not while it reads).
            while server.store.changes.waiterCount == 0 { try await Task.sleep(for: .milliseconds(10)) }
            try await server.sandbox.dropPostgresConnections()
            try await Task.sleep(for: .milliseconds(500))
            let otherInstance = try await server.sandbox.makeStore()
            _ = try await otherInstance.insert(name: "Beatrix", score: 2)
            let written = ContinuousClock.now
            let response = try await poll.value
            #expect(ContinuousClock.now - written < .seconds(10), "woken well before the 30 s wait")
            try await otherInstance.close()
            #expect(response.status == .ok, "\(String(buffer: response.body))")
            #expect(try api.payload(response).players.map(\.name) == ["Beatrix"])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aLongPollWithoutChangeAnswersTheEmptyDeltaWithTheSameCursor(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind) { server in
            _ = try await server.store.insert(name: "Arthur", score: 1)
            let immediate = try await server.client.execute(uri: "/v1/players?since=1", method: .get)
            let start = ContinuousClock.now
            let waited = try await server.client.execute(uri: "/v1/players?since=1&wait=1", method: .get)
            #expect(ContinuousClock.now - start >= .seconds(1))
            #expect(waited.status == .ok)
            #expect(waited.body == immediate.body)
            #expect(waited.headers[.eTag] == immediate.headers[.eTag])
            let etag = try #require(immediate.headers[.eTag])
            let notModified = try await server.client.execute(uri: "/v1/players?since=1&wait=1", method: .get, headers: [.ifNoneMatch: etag])
            #expect(notModified.status == .notModified)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func anOldCursorIsGoneAtOnceEvenWithAWait(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind, tombstoneRetention: 1) { server in
            let player = try await server.store.insert(name: "Arthur", score: 1)
            _ = try await server.store.delete(player.uuid)
            try await server.store.purgeTombstones(olderThan: 1, now: Date().addingTimeInterval(10))
            let start = ContinuousClock.now
            let response = try await server.client.execute(uri: "/v1/players?since=0&wait=30", method: .get)
            #expect(response.status == .gone)
            #expect(ContinuousClock.now - start < .seconds(15))
        }
    }

    @Test(arguments: ["-1", "61", "1.5", "soon", ""])
    func badWaitValuesAreRefused(_ wait: String) async throws {
        try await APITestServer.with(.embedded) { server in
            let response = try await server.client.execute(uri: "/v1/players?since=0&wait=\(wait)", method: .get)
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
}
