import Foundation
import Hummingbird
import PlayersOnServer
import ServerTestSupport
import TestSupport
import Testing

/// `HEAD` answers as `GET` on every path that takes GET: the same status
/// and headers (Content-Type, Content-Length, ETag), without the body.
@Suite struct HeadRequestTests {
    /// The headers that must be the same (X-Request-ID and Date differ by
    /// request).
    func comparedHeaders(_ response: APIResponse) -> [String] {
        ([.contentType, .contentLength, .eTag, .allow] as [HTTPFields.Element.Name]).map { "\($0): \(response.headers[$0] ?? "-")" }
    }

    @Test(arguments: StoreKind.allCases)
    func headAnswersAsGetWithoutTheBody(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind) { server in
            let player = try await server.store.insert(name: "A", score: 1)
            let uris = [
                "/health", "/healthz", "/ready", "/metrics",
                "/v1/sync/rows", "/v1/sync/rows?limit=1", "/v1/sync/rows?since=\(server.store.cursor(0))", "/v1/sync/rows?limit=0",
                "/v1/rows/player/\(player.uuid.uuidString)", "/v1/rows/player/\(UUID().uuidString)", "/v1/rows/player/nope", "/nowhere",
                "/v1/players",
            ]
            for uri in uris {
                let get = try await server.client.execute(uri: uri, method: .get)
                let head = try await server.client.execute(uri: uri, method: .head)
                #expect(head.status == get.status, "\(uri)")
                #expect(head.body.readableBytes == 0, "\(uri)")
                #expect(get.body.readableBytes > 0, "\(uri)")
                if uri != "/metrics" { // the metrics count the GET that came first
                    #expect(comparedHeaders(head) == comparedHeaders(get), "\(uri)")
                    #expect(head.headers[.contentLength] == String(get.body.readableBytes), "\(uri)")
                }
            }
        }
    }
}
