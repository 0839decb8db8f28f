import Foundation
import Hummingbird
import NIOCore
import PlayersServerStore
import ServerTestSupport
import TestSupport
import Testing

/// Every error answers with the API's JSON error object, as a curl user
/// reads it: a path that does not exist, a method a path does not take,
/// a body over its limit, a malformed request.
@Suite struct ErrorAnswerTests {
    /// The message of a JSON error body, nil if the body is not one.
    func errorMessage(_ response: APIResponse) -> String? {
        let object = try? JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: [String: String]]
        return object?["error"]?["message"]
    }

    func expectJSONError(_ response: APIResponse, _ status: HTTPResponse.Status, _ what: String) {
        #expect(response.status == status, "\(what)")
        #expect(response.headers[.contentType]?.hasPrefix("application/json") == true, "\(what)")
        #expect(errorMessage(response) != nil, "\(what): \(String(buffer: response.body))")
    }

    @Test func anUnknownPathIs404WithAJSONError() async throws {
        try await APITestServer.with(.embedded) { server in
            for uri in ["/", "/v2/players", "/v1/players/\(UUID().uuidString)/name", "/players"] {
                let response = try await server.client.execute(uri: uri, method: .get)
                expectJSONError(response, .notFound, uri)
                #expect(errorMessage(response) == "there is nothing at this path: see Docs/Server.md for the endpoints", "\(uri)")
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
                (.delete, "/v1/players", "GET, HEAD, POST"),
                (.options, "/v1/players/", "GET, HEAD, POST"),
                (.patch, "/v1/players/\(uuid)", "GET, HEAD, PUT, DELETE"),
                (.post, "/v1/players/\(uuid)", "GET, HEAD, PUT, DELETE"),
                (.get, "/v1/changes", "POST"),
                (.head, "/v1/changes", "POST"),
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
                    #expect(errorMessage(response) == "\(method.rawValue) is not allowed here: use \(allowed)", "\(method) \(uri)")
                }
            }
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
            expectJSONError(try await client.execute(uri: "/v1/players", method: .get), .unauthorized, "no token")
            let bearer: HTTPFields = [.authorization: "Bearer secret-token", .contentType: "application/json"]
            let tooLarge = try await client.execute(
                uri: "/v1/players", method: .post, headers: bearer,
                body: ByteBuffer(string: #"{"name":"\#(String(repeating: "x", count: 20_000))","score":1}"#))
            expectJSONError(tooLarge, .contentTooLarge, "a body over 16 KiB")
            let malformed = try await client.execute(uri: "/v1/players", method: .post, headers: bearer, body: ByteBuffer(string: "{"))
            expectJSONError(malformed, .badRequest, "a malformed body")
            expectJSONError(try await client.execute(uri: "/v1/players?limit=x", method: .get, headers: bearer), .badRequest, "limit=x")
            #expect(try await server.store.allPlayers().isEmpty)
        }
    }
}
