import Foundation
import Hummingbird
import NIOCore
import NIOFoundationCompat
import PlayersShared
import ServerTestSupport
import SyncSchema
import TestSupport
import Testing

/// Players' rows edited one at a time (`/v1/rows/player`), on both
/// stores: what `POST`, `PUT` and `DELETE /v1/players` were tested for
/// before the engine, on the one REST surface.
@Suite struct WriteEndpointTests {
    static let json: HTTPFields = [.contentType: "application/json"]

    func post(_ client: APIClient, _ uri: String, _ body: String, headers: HTTPFields = json, method: HTTPRequest.Method = .post) async throws -> APIResponse {
        try await client.execute(uri: uri, method: method, headers: headers, body: ByteBuffer(string: body))
    }

    func delta(_ client: APIClient, since cursor: String) async throws -> SyncPage {
        try SyncPage.players(String(buffer: try await client.execute(uri: "/v1/sync/rows?since=\(cursor)", method: .get).body))
    }

    @Test(arguments: StoreKind.allCases)
    func createUpdateDeleteAndTheirTraces(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind) { server in
            let (store, client) = (server.store, server.client)
            let created = try await post(client, "/v1/rows/player", #"{"values":{"name":" Arthur ","score":42}}"#)
            #expect(created.status == .created)
            let answer = try #require(try JSONSerialization.jsonObject(with: Data(buffer: created.body)) as? [String: Any])
            let id = try #require((answer["id"] as? String).flatMap(UUID.init(uuidString:)))
            #expect(try await store.player(id) == ServerPlayer(uuid: id, name: "Arthur", score: 42, version: 1))

            let uuid = UUID()
            let withUUID = try await post(client, "/v1/rows/player", #"{"id":"\#(uuid.uuidString)","values":{"name":"Barbara","score":1}}"#)
            #expect(withUUID.status == .created)
            let duplicate = try await post(client, "/v1/rows/player", #"{"id":"\#(uuid.uuidString)","values":{"name":"Copy","score":1}}"#)
            #expect(duplicate.status == .conflict)

            let updated = try await post(client, "/v1/rows/player/\(id.uuidString)", #"{"values":{"score":100},"version":1}"#, method: .put)
            #expect(updated.status == .ok)
            let stale = try await post(client, "/v1/rows/player/\(id.uuidString)", #"{"values":{"score":5},"version":1}"#, method: .put)
            #expect(stale.status == .conflict)
            #expect(try await store.player(id)?.score == 100)

            let deleted = try await client.execute(uri: "/v1/rows/player/\(uuid.uuidString)", method: .delete, headers: Self.json)
            #expect(deleted.status == .noContent)
            let again = try await client.execute(uri: "/v1/rows/player/\(uuid.uuidString)", method: .delete, headers: Self.json)
            #expect(again.status == .notFound)

            let delta = try await delta(client, since: store.cursor(1))
            #expect(delta.rows.map(\.row.id) == [id])
            #expect(delta.tombstones.map(\.id) == [uuid])
        }
    }

    /// A deleted player's uuid is never reused by a creation, as a push of
    /// the same creation is refused: 409, and the tombstone stays alone in
    /// the delta, so that a device that synced the deletion keeps it.
    @Test(arguments: StoreKind.allCases)
    func aCreationNeverBringsADeletedPlayerBack(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind) { server in
            let (store, client) = (server.store, server.client)
            let uuid = UUID()
            #expect(try await post(client, "/v1/rows/player", #"{"id":"\#(uuid.uuidString)","values":{"name":"Arthur","score":1}}"#).status == .created)
            #expect(try await client.execute(uri: "/v1/rows/player/\(uuid.uuidString)", method: .delete, headers: Self.json).status == .noContent)

            let again = try await post(client, "/v1/rows/player", #"{"id":"\#(uuid.uuidString)","values":{"name":"Arthur","score":2}}"#)
            #expect(again.status == .conflict)
            #expect(String(buffer: again.body).contains("deleted"), "\(String(buffer: again.body))")
            #expect(try await store.player(uuid) == nil)
            let delta = try await delta(client, since: store.cursor(0))
            #expect(delta.rows.isEmpty)
            #expect(delta.tombstones.map(\.id) == [uuid])

            let withVersion = try await post(client, "/v1/rows/player", #"{"id":"\#(uuid.uuidString)","values":{"name":"Arthur","score":2},"version":2}"#)
            #expect(withVersion.status == .badRequest)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func everyErrorStatusFromACraftedRequest(_ kind: StoreKind) async throws {
        try await withServerAndPlayer(kind) { server, uuid in
            let (store, client) = (server.store, server.client)
            let cases: [(HTTPRequest.Method, String, String, HTTPFields, HTTPResponse.Status)] = [
                (.post, "/v1/rows/player", "{not json", Self.json, .badRequest),
                (.post, "/v1/rows/player", #"{"values":{"name":"","score":1}}"#, Self.json, .badRequest),
                (.post, "/v1/rows/player", #"{"values":{"name":"A","score":"1"}}"#, Self.json, .badRequest),
                (.post, "/v1/rows/player", #"{"values":{"name":"A","score":1.5}}"#, Self.json, .badRequest),
                (.post, "/v1/rows/player", #"{"values":{"name":"A","score":1e2}}"#, Self.json, .badRequest),
                (.post, "/v1/rows/player", #"{"values":{"name":"A","score":1e300}}"#, Self.json, .badRequest),
                (.post, "/v1/rows/player", #"{"values":{"name":"A","score":-1}}"#, Self.json, .badRequest),
                (.post, "/v1/rows/player", #"{"values":{"name":"A","score":1,"admin":true}}"#, Self.json, .badRequest),
                (.post, "/v1/rows/player", #"{"values":{"name":"A","score":1},"admin":true}"#, Self.json, .badRequest),
                (.post, "/v1/rows/player", #"{"values":{"name":"A","score":1,"score":2}}"#, Self.json, .badRequest),
                (.post, "/v1/rows/player", #"{"values":{"name":"A"}}"#, Self.json, .badRequest),
                (.post, "/v1/rows/player", #"{"values":{"name":"\#(String(repeating: "x", count: 101))","score":1}}"#, Self.json, .badRequest),
                (.post, "/v1/rows/player", #"["name","score"]"#, Self.json, .badRequest),
                (.post, "/v1/rows/player", #"{"values":{"name":"A","score":1}}"#, [.contentType: "text/plain"], .unsupportedMediaType),
                (.post, "/v1/rows/player", #"{"values":{"name":"A","score":1}}"#, [:], .unsupportedMediaType),
                (.post, "/v1/rows/player", String(repeating: " ", count: 1_100_000) + "{}", Self.json, .contentTooLarge),
                (.post, "/v1/rows/nothing", #"{"values":{"name":"A","score":1}}"#, Self.json, .notFound),
                (.put, "/v1/rows/player/\(uuid)", #"{}"#, Self.json, .badRequest),
                (.put, "/v1/rows/player/not-a-uuid", #"{"values":{"score":1}}"#, Self.json, .badRequest),
                (.put, "/v1/rows/player/\(UUID().uuidString)", #"{"values":{"score":1}}"#, Self.json, .notFound),
                (.delete, "/v1/rows/player", "", [:], .methodNotAllowed),
                (.get, "/v1/refresh", "", [:], .notFound),
                (.delete, "/v1/rows/player/\(uuid)", "", [:], .unsupportedMediaType),
                (.patch, "/v1/rows/player/\(uuid)", "", [:], .methodNotAllowed),
            ]
            for (method, uri, body, headers, status) in cases {
                let response = try await post(client, uri, body, headers: headers, method: method)
                #expect(response.status == status, "\(method) \(uri) \(body.prefix(40))")
                if status != .contentTooLarge {
                    #expect(response.headers[.contentType]?.hasPrefix("application/json") == true, "\(method) \(uri)")
                }
            }
            #expect(try await store.allPlayers().count == 1)
        }
    }

    /// The random-request storm: its requests are drawn from printed seeds
    /// (`STORM_SEED=n` replays one): one seed of 200 requests in the
    /// correctness tier, five of 1,000 in the long one.
    static let stormSeeds = TestSeeds("STORM", test: "WriteEndpointTests", correctness: 1, long: 5)
    static let stormRequests = TestTier.current.size(correctness: 200, long: 1_000)

    @Test(arguments: StoreKind.allCases)
    func randomAndMalformedRequestsLeaveTheServerAnsweringAndTheDatabaseIntact(_ kind: StoreKind) async throws {
        try await withServerAndPlayer(kind) { server, uuid in
            let client = server.client
            let fragments = [#"{"values":"#, #"{"name":"#, #""A""#, #","score":"#, "1", "99999999999999999999999", "-0", "null", "true", "[", "]", "{", "}",
                             "\u{0}", "\u{FEFF}", "é", "\u{1F600}", #"\ud800"#, "\"", ",", ":", "1.0e5", String(repeating: "z", count: 200)]
            let methods: [HTTPRequest.Method] = [.get, .post, .put, .delete, .patch]
            let paths = ["/v1/rows/player", "/v1/rows/player/\(uuid)", "/v1/rows/player/\(UUID().uuidString)", "/demo/refresh",
                         "/v1/sync/changes", "/v1/sync/rows?since=-1", "/v1/sync/rows?limit=abc", "/v1/sync/rows?after=%00", "/v1/nothing"]
            for seed in Self.stormSeeds.all {
                var generator = SeededRandom(seed: seed)
                for _ in 0..<Self.stormRequests {
                    let body = (0..<Int.random(in: 0...8, using: &generator)).map { _ in fragments.randomElement(using: &generator)! }.joined()
                    let method = methods.randomElement(using: &generator)!
                    let path = paths.randomElement(using: &generator)!
                    let response = try await post(client, path, body, headers: Bool.random(using: &generator) ? Self.json : [:], method: method)
                    #expect(response.status.code < 500, "\(method) \(path) \(body) (\(Self.stormSeeds.replay(seed)))")
                }
            }
            #expect(try await client.execute(uri: "/healthz", method: .get).status == .ok)
            #expect(try await server.sandbox.storeProblems() == [])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func concurrentReadersSeeConsistentSnapshots(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind) { server in
            let (store, client) = (server.store, server.client)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    // Only inserts: the player count always equals the cursor.
                    for index in 0..<100 { _ = try await store.insert(name: "P\(index)", score: index) }
                }
                for _ in 0..<50 {
                    group.addTask {
                        for _ in 0..<4 {
                            let response = try await client.execute(uri: "/v1/sync/rows?limit=5000", method: .get)
                            let snapshot = try SyncPage.players(String(buffer: response.body))
                            #expect(Int64(snapshot.rows.count) == (try? SyncCursor(snapshot.cursor))?.counter)
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
    }

    /// A server with one player, and its uuid.
    func withServerAndPlayer(_ kind: StoreKind, _ body: @Sendable (APITestServer, String) async throws -> Void) async throws {
        try await APITestServer.with(kind) { server in
            let player = try await server.store.insert(name: "Existing", score: 1)
            try await body(server, player.uuid.uuidString)
        }
    }
}
