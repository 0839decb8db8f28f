import Foundation
import TestSupport
import Testing

/// Answers that the built server gives before any route is chosen, as a
/// client sees them on the wire: a request that is not HTTP, a `Host`
/// the server refuses. They carry the API's JSON error body too.
@Suite struct RequestsBeforeRoutingTests {
    func expectJSONError(_ response: RawHTTP.Response, _ status: Int, _ what: String) throws {
        #expect(response.status == status, "\(what)")
        #expect(response.head.lowercased().contains("content-type: application/json"), "\(what): \(response.head)")
        let object = try JSONSerialization.jsonObject(with: Data(response.body.utf8)) as? [String: [String: String]]
        #expect(object?["error"]?["message"] != nil, "\(what): \(response.body)")
        #expect(response.head.contains("Content-Length: \(response.body.utf8.count)"), "\(what): \(response.head)")
    }

    @Test func aRequestThatIsNotHTTPIs400WithAJSONError() throws {
        let server = try ServerProcess([])
        for garbage in ["hello\r\n\r\n", "GET /v1/sync/rows HTTP/9\r\n\r\n", "GET /v1/sync/rows HTTP/1.1\r\nHost: 127.0.0.1\r\nBad Header\r\n\r\n"] {
            let connection = try RawHTTP(port: server.port)
            try connection.send(garbage)
            let text = try #require(connection.readToEnd(), "\(garbage)")
            let response = try RawHTTP.parse(text)
            try expectJSONError(response, 400, garbage)
            #expect(response.body == #"{"error":{"message":"the request is not valid HTTP/1.1: check its request line and headers"}}"#)
        }
        // The server serves on.
        #expect(try server.request("GET", "/health").status == 200)
        #expect(try server.stop() == 0)
    }

    @Test func aRefusedHostIs421WithAJSONError() throws {
        let server = try ServerProcess([])
        try expectJSONError(try server.request("GET", "/v1/sync/rows", host: "attacker.example"), 421, "Host attacker.example")
        try expectJSONError(try server.request("GET", "/nowhere", host: "attacker.example"), 421, "an unknown path on a refused Host")
        #expect(try server.stop() == 0)
    }

    @Test func headOfAnUnknownPathHasTheHeadersOfItsGetAndNoBody() throws {
        let server = try ServerProcess([])
        let get = try server.request("GET", "/nowhere")
        let head = try server.request("HEAD", "/nowhere")
        #expect(get.status == 404 && head.status == 404)
        #expect(head.body.isEmpty)
        #expect(head.head.contains("Content-Length: \(get.body.utf8.count)"), "\(head.head)")
        #expect(try server.stop() == 0)
    }
}
