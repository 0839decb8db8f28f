import Foundation
import Hummingbird
import NIOCore
import NIOFoundationCompat
import PlayersShared
import ServerTestSupport
import SyncSchema
import TestSupport
import Testing

/// Players' rows through the engine's reads (`GET /v1/sync/rows`), the
/// demo, tokens and errors, on both stores: what `/v1/players` was tested
/// for before the engine, for the one protocol.
@Suite struct PlayersRowsTests {
    func page(_ response: APIResponse) throws -> SyncPage {
        #expect(response.status == .ok, "\(String(buffer: response.body))")
        return try SyncPage.players(String(buffer: response.body))
    }

    func page(_ client: APIClient, _ uri: String) async throws -> SyncPage {
        try page(try await client.execute(uri: uri, method: .get))
    }

    @Test(arguments: StoreKind.allCases)
    func aSnapshotHoldsEveryLivePlayerAndTheCursorOfTheCounter(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind) { server in
            let (store, client) = (server.store, server.client)
            var players: [ServerPlayer] = []
            for index in 0..<3 { players.append(try await store.insert(name: "P\(index)", score: index)) }
            try await store.delete(players[1].uuid)
            let response = try await client.execute(uri: "/v1/sync/rows", method: .get)
            #expect(response.headers[.contentType] == "application/json; charset=utf-8")
            let snapshot = try page(response)
            #expect(snapshot.kind == .snapshot)
            #expect(snapshot.isComplete)
            #expect(snapshot.cursor == store.cursor(4))
            #expect(Set(snapshot.rows.map(\.row.id)) == [players[0].uuid, players[2].uuid])
            #expect(snapshot.tombstones.isEmpty)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aDeltaHoldsUpdatesAndTombstonesAfterTheCursor(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind) { server in
            let (store, client) = (server.store, server.client)
            let arthur = try await store.insert(name: "Arthur", score: 1)
            let barbara = try await store.insert(name: "Barbara", score: 2)
            let cursor = try await page(client, "/v1/sync/rows").cursor
            try await store.update(arthur.uuid, score: 100)
            try await store.delete(barbara.uuid)
            let delta = try await page(client, "/v1/sync/rows?since=\(cursor)")
            #expect(delta.kind == .delta)
            #expect(delta.rows.map(\.row.id) == [arthur.uuid])
            #expect(delta.rows.first?.row.values["score"] == .integer(100))
            #expect(delta.tombstones.map(\.id) == [barbara.uuid])
            #expect(delta.cursor == store.cursor(4))
        }
    }

    /// Every page of a snapshot carries its first page's cursor, whatever
    /// is written between pages; a player changed after that cursor is
    /// left out of the later pages, and the delta after it brings it.
    @Test(arguments: StoreKind.allCases)
    func laterPagesLeaveOutPlayersChangedAfterTheCursorForTheDeltaToBring(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind) { server in
            let (store, client) = (server.store, server.client)
            var players: [ServerPlayer] = []
            for index in 0..<7 { players.append(try await store.insert(name: "P\(index)", score: index)) }
            let first = try await page(client, "/v1/sync/rows?limit=3")
            #expect(first.cursor == store.cursor(7))
            let last = try #require(players.map(\.uuid).max())
            try await store.update(last, score: 1234)
            var uri = first.next
            var later: [SyncServerRow] = []
            while let next = uri {
                let page = try await page(client, next)
                #expect(page.cursor == store.cursor(7))
                #expect(page.isComplete == (page.next == nil))
                later += page.rows
                uri = page.next
            }
            #expect(Set((first.rows + later).map(\.row.id)).count == 6)
            #expect(later.count == 3 && !later.contains { $0.row.id == last })
            #expect(later.allSatisfy { $0.version <= 7 })
            let catchUp = try await page(client, "/v1/sync/rows?since=\(store.cursor(7))")
            #expect(catchUp.rows.map { "\($0.row.id) \($0.row.values["score"]!) \($0.version)" } == ["\(last) \(SyncValue.integer(1234)) 8"])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aCursorOlderThanThePurgedTombstonesIsGone(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind) { server in
            let (store, client) = (server.store, server.client)
            let player = try await store.insert(name: "A", score: 1)
            try await store.delete(player.uuid)
            try await server.sandbox.ageTombstones(by: 7200)
            try await server.engine.purgeTombstones(olderThan: 3600, now: Date())
            let response = try await client.execute(uri: "/v1/sync/rows?since=\(store.cursor(1))", method: .get)
            #expect(response.status == .gone)
            #expect(response.errorMessage?.contains("take a snapshot") == true)
        }
    }

    /// A cursor of another history gets 410 with its reason, whatever its
    /// counter: never a delta across a restore or from another database.
    @Test(arguments: StoreKind.allCases)
    func cursorsOfAnotherHistoryAreGone(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind) { server in
            let (store, client) = (server.store, server.client)
            try await store.insert(name: "A", score: 1)
            let history = store.history
            let cases = [
                (SyncCursor(counter: 1, epoch: history.currentEpoch, server: UUID()).description, "another server's database"),
                (SyncCursor(counter: 1, epoch: SyncCursor.newEpoch(), server: history.server).description,
                 "from before this server's database was restored from a backup"),
                ("1", "of an older form"),
            ]
            for (cursor, reason) in cases {
                for uri in ["/v1/sync/rows?since=\(cursor)", "/v1/sync/rows?since=\(cursor)&wait=30", "/v1/sync/rows?limit=1&at=\(cursor)"] {
                    let response = try await client.execute(uri: uri, method: .get)
                    #expect(response.status == .gone, "\(uri)")
                    #expect(response.errorMessage?.contains(reason) == true, "\(uri)")
                }
            }
            #expect(try await client.execute(uri: "/v1/sync/rows?since=\(store.cursor(1))", method: .get).status == .ok)
        }
    }

    /// PostgreSQL refuses connections: every call that needs it is answered
    /// 503 with `Retry-After`, which clients retry, and not 500.
    @Test func anUnreachableDatabaseIsAnsweredServiceUnavailableWithRetryAfter() async throws {
        try await APITestServer.with(.postgres) { server in
            let (store, client) = (server.store, server.client)
            let player = try await store.insert(name: "A", score: 1)
            try await server.sandbox.refuseConnections()
            let deletion = try SyncChange.playerDelete(UUID(), base: 1)
            let json: HTTPFields = [.contentType: "application/json"]
            let answers = [
                try await client.execute(uri: "/v1/sync/rows", method: .get),
                try await client.execute(uri: "/v1/sync/rows?since=\(store.cursor(0))", method: .get),
                try await client.execute(uri: "/v1/sync/changes", method: .post, headers: json,
                                         body: ByteBuffer(data: SyncChangeBatch(changes: [deletion]).jsonData())),
                try await client.execute(uri: "/v1/rows/player/\(player.uuid)", method: .get),
                try await client.execute(uri: "/v1/rows/player/\(player.uuid)", method: .put, headers: json,
                                         body: ByteBuffer(string: #"{"values": {"score": 2}}"#)),
            ]
            for answer in answers {
                #expect(answer.status == .serviceUnavailable)
                #expect(answer.headers[.retryAfter] == "5")
                #expect(answer.errorMessage == "the server's database cannot be reached now: try again later")
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func expiredTombstonesArePurgedWhileTheServerRuns(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind, tombstoneRetention: 3600) { server in
            let (store, client) = (server.store, server.client)
            let player = try await store.insert(name: "A", score: 1)
            try await store.delete(player.uuid)
            try await server.sandbox.ageTombstones(by: 7200)
            // No purge was asked for: the server purges before answering.
            let response = try await client.execute(uri: "/v1/sync/rows?since=\(store.cursor(1))", method: .get)
            #expect(response.status == .gone)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func theDemosRefreshChangesThePlayers(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind, demo: true) { server in
            let response = try await server.client.execute(uri: "/demo/refresh", method: .post, headers: [.contentType: "application/json"])
            #expect(response.status == .ok)
            #expect(try await server.store.allPlayers().count == 8)
            #expect(String(buffer: response.body) == #"{"version":"8"}"#)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func tokensAreRequiredWhenConfigured(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind, token: "s3cret-token") { server in
            let client = server.client
            for uri in ["/v1/sync/rows", "/v1/rows/player/\(UUID())"] {
                let missing = try await client.execute(uri: uri, method: .get)
                #expect(missing.status == .unauthorized)
                let wrong = try await client.execute(uri: uri, method: .get, headers: [.authorization: "Bearer nope"])
                #expect(wrong.status == .unauthorized)
                #expect(wrong.errorMessage?.contains("s3cret") == false)
            }
            let right = try await client.execute(uri: "/v1/sync/rows", method: .get, headers: [.authorization: "Bearer s3cret-token"])
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
            for uri in ["/v1/sync/rows?since=abc", "/v1/sync/rows?limit=0", "/v1/sync/rows?limit=999999", "/v1/sync/rows?after=nope",
                        "/v1/sync/rows?tables=nothing", "/v1/rows/player/nope"] {
                let response = try await client.execute(uri: uri, method: .get)
                #expect(response.status == .badRequest, "\(uri)")
                #expect(response.errorMessage != nil, "\(uri)")
            }
            let missing = try await client.execute(uri: "/v1/rows/player/\(UUID().uuidString)", method: .get)
            #expect(missing.status == .notFound)
            let found = try await client.execute(uri: "/v1/rows/player/\(player.uuid.uuidString)", method: .get)
            #expect(found.status == .ok)
            #expect(String(buffer: found.body).contains(#""name":"A""#))
        }
    }
}
