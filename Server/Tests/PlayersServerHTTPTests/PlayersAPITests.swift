import CipherDB
import Foundation
import Hummingbird
import Players
import PlayersProtocol
import PlayersServerStore
import PlayersServerHTTP
import ServerTestSupport
import TestSupport
import Testing

/// The read endpoints, tokens and errors, on both stores.
@Suite struct PlayersAPITests {
    func payload(_ response: APIResponse) throws -> PlayersPayload {
        try PlayersPayload.decode(Data(buffer: response.body))
    }

    func errorMessage(_ response: APIResponse) throws -> String? {
        let object = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: [String: String]]
        return object?["error"]?["message"]
    }

    @Test(arguments: StoreKind.allCases)
    func snapshotHoldsEveryLivePlayerAndTheCursor(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind) { server in
            let (store, client) = (server.store, server.client)
            var players: [ServerPlayer] = []
            for index in 0..<3 { players.append(try await store.insert(name: "P\(index)", score: index)) }
            _ = try await store.delete(players[1].uuid)
            let response = try await client.execute(uri: "/v1/players", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/json; charset=utf-8")
            let snapshot = try payload(response)
            #expect(snapshot.kind == .snapshot)
            #expect(snapshot.complete)
            #expect(snapshot.cursor == store.cursor(4))
            #expect(Set(snapshot.players.map(\.uuid)) == [players[0].uuid, players[2].uuid])
            #expect(snapshot.players.allSatisfy { $0.version != nil })
        }
    }

    @Test(arguments: StoreKind.allCases)
    func deltaHoldsUpdatesAndTombstonesAfterTheCursor(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind) { server in
            let (store, client) = (server.store, server.client)
            let arthur = try await store.insert(name: "Arthur", score: 1)
            let barbara = try await store.insert(name: "Barbara", score: 2)
            let cursor = try payload(try await client.execute(uri: "/v1/players", method: .get)).cursor!
            try await store.update(arthur.uuid, score: 100)
            _ = try await store.delete(barbara.uuid)
            let delta = try payload(try await client.execute(uri: "/v1/players?since=\(cursor)", method: .get))
            #expect(delta.kind == .delta)
            #expect(delta.players.map(\.uuid) == [arthur.uuid])
            #expect(delta.players.first?.score == 100)
            #expect(delta.tombstones.map(\.uuid) == [barbara.uuid])
            #expect(delta.cursor == store.cursor(4))
        }
    }

    @Test(arguments: StoreKind.allCases)
    func etagsAnswerNotModified(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind) { server in
            let (store, client) = (server.store, server.client)
            _ = try await store.insert(name: "A", score: 1)
            let first = try await client.execute(uri: "/v1/players", method: .get)
            let etag = try #require(first.headers[.eTag])
            let again = try await client.execute(uri: "/v1/players", method: .get, headers: [.ifNoneMatch: etag])
            #expect(again.status == .notModified)
            #expect(again.body.readableBytes == 0)
            _ = try await store.insert(name: "B", score: 2)
            let changed = try await client.execute(uri: "/v1/players", method: .get, headers: [.ifNoneMatch: etag])
            #expect(changed.status == .ok)
            #expect(changed.headers[.eTag] != etag)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func pagesFollowNextLinksAndCarryTheFirstCursor(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind) { server in
            let (store, client) = (server.store, server.client)
            var players: [ServerPlayer] = []
            for index in 0..<7 { players.append(try await store.insert(name: "P\(index)", score: index)) }
            var uri: String? = "/v1/players?limit=3"
            var seen: [UUID] = []
            var cursors: Set<String> = []
            while let next = uri {
                let page = try payload(try await client.execute(uri: next, method: .get))
                seen += page.players.map(\.uuid)
                cursors.insert(page.cursor ?? "")
                // A write between pages does not move the snapshot's cursor.
                if let seenPlayer = page.players.first {
                    try await store.update(seenPlayer.uuid, score: Int.random(in: 0...1000))
                }
                #expect(page.complete == (page.next == nil))
                uri = page.next
            }
            #expect(Set(seen) == Set(players.map(\.uuid)))
            #expect(seen.count == 7)
            #expect(cursors == [store.cursor(7)])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func laterPagesLeaveOutPlayersChangedAfterTheCursorForTheDeltaToBring(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind) { server in
            let (store, client) = (server.store, server.client)
            var players: [ServerPlayer] = []
            for index in 0..<7 { players.append(try await store.insert(name: "P\(index)", score: index)) }
            let first = try payload(try await client.execute(uri: "/v1/players?limit=3", method: .get))
            let last = try #require(players.map(\.uuid).max())
            try await store.update(last, score: 1234)
            var uri = first.next
            var later: [PlayersPayload.PlayerEntry] = []
            while let next = uri {
                let page = try payload(try await client.execute(uri: next, method: .get))
                #expect(page.cursor == store.cursor(7))
                later += page.players
                uri = page.next
            }
            #expect(later.count == 3 && !later.contains { $0.uuid == last })
            #expect(later.allSatisfy { ($0.version ?? 0) <= 7 })
            let catchUp = try payload(try await client.execute(uri: "/v1/players?since=\(store.cursor(7))", method: .get))
            #expect(catchUp.players == [PlayersPayload.PlayerEntry(uuid: last, name: players.first { $0.uuid == last }!.name, score: 1234, version: 8)])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func oldCursorsAreGone(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind) { server in
            let (store, client) = (server.store, server.client)
            let player = try await store.insert(name: "A", score: 1)
            _ = try await store.delete(player.uuid)
            try await server.sandbox.ageTombstones(by: 7200)
            try await store.purgeTombstones(olderThan: 3600, now: Date())
            let response = try await client.execute(uri: "/v1/players?since=\(store.cursor(1))", method: .get)
            #expect(response.status == .gone)
            #expect(try errorMessage(response)?.contains("take a snapshot") == true)
        }
    }

    /// A cursor of another history gets 410 with its reason, whatever its
    /// counter: never a delta across a restore or from another database.
    @Test(arguments: StoreKind.allCases)
    func cursorsOfAnotherHistoryAreGone(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind) { server in
            let (store, client) = (server.store, server.client)
            _ = try await store.insert(name: "A", score: 1)
            let history = store.history
            let cases = [
                (PlayersCursor(counter: 1, epoch: history.currentEpoch, server: UUID()).description, "another server's database"),
                (PlayersCursor(counter: 1, epoch: PlayersCursor.newEpoch(), server: history.server).description,
                 "from before this server's database was restored from a backup"),
                ("1", "of an older form"),
            ]
            for (cursor, reason) in cases {
                for uri in ["/v1/players?since=\(cursor)", "/v1/players?since=\(cursor)&wait=30", "/v1/players?limit=1&at=\(cursor)"] {
                    let response = try await client.execute(uri: uri, method: .get)
                    #expect(response.status == .gone, "\(uri)")
                    #expect(try errorMessage(response)?.contains(reason) == true, "\(uri)")
                }
            }
            #expect(try await client.execute(uri: "/v1/players?since=\(store.cursor(1))", method: .get).status == .ok)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aBatchForAnotherServersDatabaseIsRefusedWhole(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind) { server in
            let (store, client) = (server.store, server.client)
            func batch(server: UUID) -> ByteBuffer {
                ByteBuffer(string: #"{"changes":[{"kind":"save","mutationID":"\#(UUID().uuidString)","name":"A","score":1,"uuid":"\#(UUID().uuidString)"}],"protocolVersion":1,"server":"\#(server.uuidString)"}"#)
            }
            let headers: HTTPFields = [.contentType: "application/json"]
            let other = try await client.execute(uri: "/v1/changes", method: .post, headers: headers, body: batch(server: UUID()))
            #expect(other.status == .preconditionFailed)
            #expect(try errorMessage(other)?.contains("not ") == true)
            #expect(try await store.allPlayers().isEmpty)
            let own = try await client.execute(uri: "/v1/changes", method: .post, headers: headers, body: batch(server: store.history.server))
            #expect(own.status == .ok)
            #expect(try await store.allPlayers().count == 1)
        }
    }

    /// PostgreSQL refuses connections: every call that needs it is answered
    /// 503 with `Retry-After`, which clients retry, and not 500.
    @Test func anUnreachableDatabaseIsAnsweredServiceUnavailableWithRetryAfter() async throws {
        try await APITestServer.with(.postgres) { server in
            let (store, client) = (server.store, server.client)
            _ = try await store.insert(name: "A", score: 1)
            try await server.sandbox.refuseConnections()
            let batch = ByteBuffer(string: #"{"changes":[{"kind":"delete","mutationID":"\#(UUID().uuidString)","uuid":"\#(UUID().uuidString)"}],"protocolVersion":1}"#)
            let answers = [
                try await client.execute(uri: "/v1/players", method: .get),
                try await client.execute(uri: "/v1/players?since=\(store.cursor(0))", method: .get),
                try await client.execute(uri: "/v1/changes", method: .post, headers: [.contentType: "application/json"], body: batch),
            ]
            for answer in answers {
                #expect(answer.status == .serviceUnavailable)
                #expect(answer.headers[.retryAfter] == "5")
                #expect(try errorMessage(answer) == "the server's database cannot be reached now: try again later")
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func expiredTombstonesArePurgedWhileTheServerRuns(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind, tombstoneRetention: 3600) { server in
            let (store, client) = (server.store, server.client)
            let player = try await store.insert(name: "A", score: 1)
            _ = try await store.delete(player.uuid)
            try await server.sandbox.ageTombstones(by: 7200)
            // No purge was asked for: the server purges before answering.
            let response = try await client.execute(uri: "/v1/players?since=\(store.cursor(1))", method: .get)
            #expect(response.status == .gone)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func refreshChangesThePlayers(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind, demo: true) { server in
            let (store, client) = (server.store, server.client)
            let response = try await client.execute(uri: "/demo/refresh", method: .post, headers: [.contentType: "application/json"])
            #expect(response.status == .ok)
            #expect(try await store.allPlayers().count == 8)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func tokensAreRequiredWhenConfigured(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind, token: "s3cret-token") { server in
            let client = server.client
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

    @Test(arguments: StoreKind.allCases)
    func badRequestsGetJSONErrors(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind) { server in
            let (store, client) = (server.store, server.client)
            let player = try await store.insert(name: "A", score: 1)
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
