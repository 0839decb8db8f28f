import Foundation
import Hummingbird
import NIOCore
import PlayersOnServer
import ServerTestSupport
import TestSupport
import Testing

/// Every error answers with the API's JSON error object, as a curl user
/// reads it: a path that does not exist, a method a path does not take,
/// a body over its limit, a malformed request.
@Suite struct ErrorAnswerTests {
    func expectJSONError(_ response: APIResponse, _ status: HTTPResponse.Status, _ what: String) {
        #expect(response.status == status, "\(what)")
        #expect(response.headers[.contentType]?.hasPrefix("application/json") == true, "\(what)")
        #expect(response.errorMessage != nil, "\(what): \(String(buffer: response.body))")
    }

    @Test func anUnknownPathIs404WithAJSONError() async throws {
        try await APITestServer.with(.embedded) { server in
            for uri in ["/", "/v2/sync/rows", "/v1/rows/player/\(UUID().uuidString)/name", "/players", "/v1/sync"] {
                let response = try await server.client.execute(uri: uri, method: .get)
                expectJSONError(response, .notFound, uri)
                #expect(response.errorMessage == "there is nothing at this path: see Docs/Server.md for the endpoints", "\(uri)")
            }
        }
    }

    @Test func aKnownPathWithAnotherMethodIs405WithItsMethodsInAllow() async throws {
        try await APITestServer.with(.embedded, token: "secret-token", demo: true) { server in
            let uuid = UUID().uuidString
            let cases: [(HTTPRequest.Method, String, String)] = [
                (.post, "/health", "GET, HEAD"),
                (.delete, "/ready", "GET, HEAD"),
                (.put, "/metrics", "GET, HEAD"),
                (.delete, "/v1/sync/rows", "GET, HEAD"),
                (.options, "/v1/sync/rows/", "GET, HEAD"),
                (.get, "/v1/sync/changes", "POST"),
                (.head, "/v1/sync/changes", "POST"),
                (.get, "/v1/rows/player", "POST"),
                (.patch, "/v1/rows/player/\(uuid)", "GET, HEAD, PUT, DELETE"),
                (.post, "/v1/rows/player/\(uuid)", "GET, HEAD, PUT, DELETE"),
                (.get, "/demo/refresh", "POST"),
            ]
            for (method, uri, allowed) in cases {
                let response = try await server.client.execute(uri: uri, method: method)
                #expect(response.status == .methodNotAllowed, "\(method) \(uri)")
                #expect(response.headers[.allow] == allowed, "\(method) \(uri)")
                #expect(response.headers[.contentType]?.hasPrefix("application/json") == true, "\(method) \(uri)")
                if method == .head {
                    #expect(response.body.readableBytes == 0, "\(method) \(uri)")
                } else {
                    #expect(response.errorMessage == "\(method.rawValue) is not allowed here: use \(allowed)", "\(method) \(uri)")
                }
            }
        }
    }

    /// A client of Players' protocol before the sync engine is told what
    /// to install, whatever it asks, with or without a token.
    @Test func theEarlierProtocolsPathsAreGoneWithWhatToInstall() async throws {
        try await APITestServer.with(.embedded, token: "secret-token") { server in
            let bearer: HTTPFields = [.authorization: "Bearer secret-token", .contentType: "application/json"]
            let uuid = UUID().uuidString
            let cases: [(HTTPRequest.Method, String)] = [
                (.get, "/v1/players"), (.get, "/v1/players?since=1.A.B&wait=30"), (.post, "/v1/players"), (.get, "/v1/players/\(uuid)"),
                (.put, "/v1/players/\(uuid)"), (.delete, "/v1/players/\(uuid)"), (.post, "/v1/changes"), (.get, "/v1/changes"),
            ]
            for (method, uri) in cases {
                let response = try await server.client.execute(uri: uri, method: method, headers: bearer, body: ByteBuffer(string: "{}"))
                expectJSONError(response, .gone, "\(method) \(uri)")
                #expect(response.errorMessage?.contains("install the current players") == true, "\(method) \(uri)")
            }
            expectJSONError(try await server.client.execute(uri: "/v1/players", method: .get), .unauthorized, "no token")
            #expect(try await server.store.currentVersion() == 0)
        }
    }

    @Test func theDemoPathIsUnknownWithoutDemo() async throws {
        try await APITestServer.with(.embedded) { server in
            expectJSONError(try await server.client.execute(uri: "/demo/refresh", method: .post), .notFound, "/demo/refresh")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func clientErrorsAreJSON(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind, token: "secret-token") { server in
            let client = server.client
            expectJSONError(try await client.execute(uri: "/v1/sync/rows", method: .get), .unauthorized, "no token")
            let bearer: HTTPFields = [.authorization: "Bearer secret-token", .contentType: "application/json"]
            let tooLarge = try await client.execute(
                uri: "/v1/rows/player", method: .post, headers: bearer,
                body: ByteBuffer(string: #"{"values":{"name":"\#(String(repeating: "x", count: 1_100_000))","score":1}}"#))
            expectJSONError(tooLarge, .contentTooLarge, "a body over 1 MiB")
            let malformed = try await client.execute(uri: "/v1/sync/changes", method: .post, headers: bearer, body: ByteBuffer(string: "{"))
            expectJSONError(malformed, .badRequest, "a malformed body")
            expectJSONError(try await client.execute(uri: "/v1/sync/rows?limit=x", method: .get, headers: bearer), .badRequest, "limit=x")
            #expect(try await server.store.allPlayers().isEmpty)
        }
    }
}
