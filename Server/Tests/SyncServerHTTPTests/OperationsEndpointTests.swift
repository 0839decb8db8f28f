import Foundation
import Hummingbird
import SyncServerHTTP
import PlayersOnServer
import ServerTestSupport
import TestSupport
import Testing

/// `GET /health`, `/ready` and `/metrics`, and the request id, on both
/// stores.
@Suite struct OperationsEndpointTests {
    static let requestID = HTTPFields.Element.Name("X-Request-ID")!

    func text(_ response: APIResponse) -> String {
        String(buffer: response.body)
    }

    /// The value of the sample `name{labels}` in a Prometheus text, if any.
    func sample(_ metrics: String, _ name: String) -> Double? {
        metrics.split(separator: "\n").first { $0.hasPrefix(name + " ") }.flatMap { Double($0.split(separator: " ").last!) }
    }

    /// A server on a store that is closed before the first request.
    func withClosedStore(_ kind: StoreKind, _ body: @Sendable (APIClient) async throws -> Void) async throws {
        try await StoreSandbox.with(kind) { sandbox in
            let store = try await sandbox.makeStore()
            try await store.close()
            try await APIClient.withServer(SyncServerAPI(engine: store.engine, configuration: ServerConfiguration()).makeRouter(), body)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func healthAndReadyAnswerWithoutTheToken(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind, token: "secret-token") { server in
            let health = try await server.client.execute(uri: "/health", method: .get)
            #expect(health.status == .ok)
            #expect(text(health) == #"{"status":"ok"}"#)
            let ready = try await server.client.execute(uri: "/ready", method: .get)
            #expect(ready.status == .ok)
            #expect(text(ready) == #"{"status":"ready"}"#)
            #expect(try await server.client.execute(uri: "/healthz", method: .get).status == .ok)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func readyIs503WithOneSentenceWhenTheStoreIsClosed(_ kind: StoreKind) async throws {
        try await withClosedStore(kind) { client in
            let ready = try await client.execute(uri: "/ready", method: .get)
            #expect(ready.status == .serviceUnavailable)
            #expect(text(ready) == #"{"error":{"message":"the store failed a check: its database is unreachable or closed (the server's log tells more)"}}"#)
            let head = try await client.execute(uri: "/ready", method: .head)
            #expect(head.status == .serviceUnavailable)
            #expect(head.body.readableBytes == 0)
            // Liveness does not ask the store.
            #expect(try await client.execute(uri: "/health", method: .get).status == .ok)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aFailingStoreIsCountedAndAnswered500WithTheRequestID(_ kind: StoreKind) async throws {
        try await withClosedStore(kind) { client in
            let response = try await client.execute(uri: "/v1/sync/rows", method: .get, headers: [Self.requestID: "trace-42"])
            #expect(response.status == .internalServerError)
            #expect(text(response).contains("under the request id trace-42"))
            let metrics = text(try await client.execute(uri: "/metrics", method: .get))
            #expect(sample(metrics, "players_server_store_errors_total") == 1)
            #expect(sample(metrics, #"players_server_requests_total{route="/v1/sync/rows",method="GET",status="500"}"#) == 1)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func metricsCountRequestsByRouteTemplateAndStatus(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind) { server in
            let client = server.client
            let player = try await server.store.insert(name: "Arthur", score: 1)
            #expect(try await client.execute(uri: "/v1/rows/player/\(player.uuid)", method: .get).status == .ok)
            #expect(try await client.execute(uri: "/v1/rows/player/\(UUID())", method: .get).status == .notFound)
            #expect(try await client.execute(uri: "/v1/rows/player/\(UUID())", method: .get).status == .notFound)
            #expect(try await client.execute(uri: "/no/such/\(UUID())", method: .get).status == .notFound)
            for _ in 0..<3 { _ = try await client.execute(uri: "/v1/sync/rows", method: .get) }
            let response = try await client.execute(uri: "/metrics", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "text/plain; version=0.0.4; charset=utf-8")
            let metrics = text(response)
            #expect(sample(metrics, #"players_server_requests_total{route="/v1/rows/{table}/{id}",method="GET",status="200"}"#) == 1)
            #expect(sample(metrics, #"players_server_requests_total{route="/v1/rows/{table}/{id}",method="GET",status="404"}"#) == 2)
            #expect(sample(metrics, #"players_server_requests_total{route="unmatched",method="GET",status="404"}"#) == 1)
            #expect(sample(metrics, #"players_server_requests_total{route="/v1/sync/rows",method="GET",status="200"}"#) == 3)
            #expect(sample(metrics, #"players_server_request_duration_seconds_count{route="/v1/sync/rows",method="GET"}"#) == 3)
            #expect(sample(metrics, #"players_server_request_duration_seconds_bucket{route="/v1/sync/rows",method="GET",le="+Inf"}"#) == 3)
            #expect(sample(metrics, "players_server_long_polls_open") == 0)
            #expect(sample(metrics, "players_server_store_errors_total") == 0)
            // Bounded labels: no path a client sent.
            #expect(!metrics.contains(player.uuid.uuidString))
            #expect(!metrics.contains("/no/such"))
        }
    }

    @Test func metricsNeedTheTokenWhenThereIsOne() async throws {
        try await APITestServer.with(.embedded, token: "secret-token") { server in
            #expect(try await server.client.execute(uri: "/metrics", method: .get).status == .unauthorized)
            let response = try await server.client.execute(uri: "/metrics", method: .get, headers: [.authorization: "Bearer secret-token"])
            #expect(response.status == .ok)
            #expect(text(response).contains(#"players_server_requests_total{route="/metrics",method="GET",status="401"} 1"#))
        }
    }

    @Test func aSafeRequestIDIsEchoedAndAnyOtherReplaced() async throws {
        try await APITestServer.with(.embedded) { server in
            let safe = "Req-1.a_b-" + String(repeating: "x", count: 118)
            let echoed = try await server.client.execute(uri: "/health", method: .get, headers: [Self.requestID: safe])
            #expect(echoed.headers[Self.requestID] == safe)
            var generated: Set<String> = []
            for unsafe in [nil, safe + "y", "two words", "a\u{1B}[31m", ""] {
                let headers: HTTPFields = unsafe.map { [Self.requestID: $0] } ?? [:]
                let response = try await server.client.execute(uri: "/v1/no-such-path", method: .get, headers: headers)
                let id = try #require(response.headers[Self.requestID])
                #expect(id != unsafe)
                #expect(id.count >= 16 && id.allSatisfy { $0.isHexDigit })
                generated.insert(id)
            }
            #expect(generated.count == 5)
        }
    }

    @Test func openLongPollsAreAGauge() {
        let metrics = ServerMetrics()
        metrics.longPollStarted()
        metrics.longPollStarted()
        metrics.longPollEnded()
        #expect(sample(metrics.text, "players_server_long_polls_open") == 1)
    }
}
