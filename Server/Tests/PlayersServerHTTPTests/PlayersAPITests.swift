import CipherDB
import Foundation
import Hummingbird
import HummingbirdTesting
import Players
import PlayersProtocol
import PlayersServerStore
import PlayersServerHTTP
import TestSupport
import Testing

@Suite struct PlayersAPITests {
    /// Runs `body` against a live server on loopback, backed by an
    /// encrypted database file in its own folder.
    func withServer(token: String? = nil, tombstoneRetention: TimeInterval = 30 * 86_400, demo: Bool = false, _ body: @Sendable (ServerPlayersDatabase, any TestClientProtocol) async throws -> Void) async throws {
        let folder = try TemporaryFolder()
        var databaseConfiguration = Configuration()
        databaseConfiguration.prepareDatabase { db in try db.usePassphrase("server secret") }
        let store = try ServerPlayersDatabase(DatabasePool(path: folder.path("server.db"), configuration: databaseConfiguration))
        var configuration = ServerConfiguration()
        configuration.token = token
        configuration.tombstoneRetention = tombstoneRetention
        configuration.defaultPageSize = 100
        configuration.servesDemoRefresh = demo
        let app = Application(router: PlayersAPI(store: EmbeddedPlayersStore(store), configuration: configuration).makeRouter())
        try await app.test(.live) { client in
            try await body(store, client)
        }
    }

    func payload(_ response: TestResponse) throws -> PlayersPayload {
        try PlayersPayload.decode(Data(buffer: response.body))
    }

    func errorMessage(_ response: TestResponse) throws -> String? {
        let object = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: [String: String]]
        return object?["error"]?["message"]
    }

    @Test func snapshotHoldsEveryLivePlayerAndTheCursor() async throws {
        try await withServer { store, client in
            let players = try (0..<3).map { try store.insert(name: "P\($0)", score: $0) }
            try store.delete(players[1].uuid)
            let response = try await client.execute(uri: "/v1/players", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/json; charset=utf-8")
            let snapshot = try payload(response)
            #expect(snapshot.kind == .snapshot)
            #expect(snapshot.complete)
            #expect(snapshot.cursor == "4")
            #expect(Set(snapshot.players.map(\.uuid)) == [players[0].uuid, players[2].uuid])
            #expect(snapshot.players.allSatisfy { $0.version != nil })
        }
    }

    @Test func deltaHoldsUpdatesAndTombstonesAfterTheCursor() async throws {
        try await withServer { store, client in
            let arthur = try store.insert(name: "Arthur", score: 1)
            let barbara = try store.insert(name: "Barbara", score: 2)
            let cursor = try payload(try await client.execute(uri: "/v1/players", method: .get)).cursor!
            _ = try store.update(arthur.uuid, name: nil, score: 100)
            try store.delete(barbara.uuid)
            let delta = try payload(try await client.execute(uri: "/v1/players?since=\(cursor)", method: .get))
            #expect(delta.kind == .delta)
            #expect(delta.players.map(\.uuid) == [arthur.uuid])
            #expect(delta.players.first?.score == 100)
            #expect(delta.tombstones.map(\.uuid) == [barbara.uuid])
            #expect(delta.cursor == "4")
        }
    }

    @Test func etagsAnswerNotModified() async throws {
        try await withServer { store, client in
            _ = try store.insert(name: "A", score: 1)
            let first = try await client.execute(uri: "/v1/players", method: .get)
            let etag = try #require(first.headers[.eTag])
            let again = try await client.execute(uri: "/v1/players", method: .get, headers: [.ifNoneMatch: etag])
            #expect(again.status == .notModified)
            #expect(again.body.readableBytes == 0)
            _ = try store.insert(name: "B", score: 2)
            let changed = try await client.execute(uri: "/v1/players", method: .get, headers: [.ifNoneMatch: etag])
            #expect(changed.status == .ok)
            #expect(changed.headers[.eTag] != etag)
        }
    }

    @Test func pagesFollowNextLinksAndCarryTheFirstCursor() async throws {
        try await withServer { store, client in
            let players = try (0..<7).map { try store.insert(name: "P\($0)", score: $0) }
            var uri: String? = "/v1/players?limit=3"
            var seen: [UUID] = []
            var cursors: Set<String> = []
            while let next = uri {
                let page = try payload(try await client.execute(uri: next, method: .get))
                seen += page.players.map(\.uuid)
                cursors.insert(page.cursor ?? "")
                // A write between pages does not move the snapshot's cursor.
                _ = try store.update(players[0].uuid, name: nil, score: Int.random(in: 0...1000))
                #expect(page.complete == (page.next == nil))
                uri = page.next
            }
            #expect(Set(seen) == Set(players.map(\.uuid)))
            #expect(seen.count == 7)
            #expect(cursors == ["7"])
        }
    }

    @Test func oldCursorsAreGone() async throws {
        try await withServer { store, client in
            let player = try store.insert(name: "A", score: 1)
            try store.delete(player.uuid, at: Date(timeIntervalSinceNow: -7200))
            try store.purgeTombstones(olderThan: 3600)
            let response = try await client.execute(uri: "/v1/players?since=1", method: .get)
            #expect(response.status == .gone)
            #expect(try errorMessage(response)?.contains("take a snapshot") == true)
        }
    }

    @Test func expiredTombstonesArePurgedWhileTheServerRuns() async throws {
        try await withServer(tombstoneRetention: 3600) { store, client in
            let player = try store.insert(name: "A", score: 1)
            try store.delete(player.uuid, at: Date(timeIntervalSinceNow: -7200))
            // No purge was asked for: the server purges before answering.
            let response = try await client.execute(uri: "/v1/players?since=1", method: .get)
            #expect(response.status == .gone)
        }
    }

    @Test func refreshChangesThePlayers() async throws {
        try await withServer(demo: true) { store, client in
            let response = try await client.execute(uri: "/demo/refresh", method: .post, headers: [.contentType: "application/json"])
            #expect(response.status == .ok)
            #expect(try store.snapshot(limit: 100).players.count == 8)
        }
    }

    @Test func tokensAreRequiredWhenConfigured() async throws {
        try await withServer(token: "s3cret-token") { _, client in
            let missing = try await client.execute(uri: "/v1/players", method: .get)
            #expect(missing.status == .unauthorized)
            let wrong = try await client.execute(uri: "/v1/players", method: .get, headers: [.authorization: "Bearer nope"])
            #expect(wrong.status == .unauthorized)
            #expect(try errorMessage(wrong)?.contains("s3cret") == false)
            let right = try await client.execute(uri: "/v1/players", method: .get, headers: [.authorization: "Bearer s3cret-token"])
            #expect(right.status == .ok)
            // Health checks need no token.
            #expect(try await client.execute(uri: "/healthz", method: .get).status == .ok)
        }
    }

    @Test func badRequestsGetJSONErrors() async throws {
        try await withServer { store, client in
            let player = try store.insert(name: "A", score: 1)
            for uri in ["/v1/players?since=abc", "/v1/players?limit=0", "/v1/players?limit=999999", "/v1/players?after=nope", "/v1/players/nope"] {
                let response = try await client.execute(uri: uri, method: .get)
                #expect(response.status == .badRequest, "\(uri)")
                #expect(try errorMessage(response) != nil, "\(uri)")
            }
            let missing = try await client.execute(uri: "/v1/players/\(UUID().uuidString)", method: .get)
            #expect(missing.status == .notFound)
            let found = try await client.execute(uri: "/v1/players/\(player.uuid.uuidString)", method: .get)
            #expect(found.status == .ok)
            let entry = try JSONDecoder().decode(PlayersPayload.PlayerEntry.self, from: Data(buffer: found.body))
            #expect(entry.name == "A")
        }
    }
}

import NIOCore
import NIOFoundationCompat
