import Foundation
import Hummingbird
import NIOCore

/// An error answered as JSON, `{"error": {"message": "…"}}`, with its
/// status. Messages are safe to show: never a token, a passphrase or a
/// stack trace.
public struct APIError: HTTPResponseError, Sendable {
    public let status: HTTPResponse.Status
    public let message: String
    /// Extra members of the error object (`"snapshot"` for 410).
    let extra: [String: String]
    /// Extra headers (`Allow` for 405).
    let headers: HTTPFields

    init(_ status: HTTPResponse.Status, _ message: String, extra: [String: String] = [:], headers: HTTPFields = [:]) {
        self.status = status
        self.message = message
        self.extra = extra
        self.headers = headers
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var object = extra
        object["message"] = message
        let data = try JSONEncoder.api.encode(["error": object])
        var headers = self.headers
        headers[.contentType] = "application/json; charset=utf-8"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    static let unauthorized = APIError(.unauthorized, "missing or wrong bearer token: send 'Authorization: Bearer TOKEN'")
    static func badRequest(_ message: String) -> APIError { APIError(.badRequest, message) }
    static func notFound(_ message: String) -> APIError { APIError(.notFound, message) }
    static let gone = APIError(
        .gone, "the cursor is older than the tombstone retention, or unknown to this server: take a snapshot",
        extra: ["snapshot": "/v1/players"])
}

extension JSONEncoder {
    /// The encoder of API bodies: sorted keys, no escaped slashes.
    static var api: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
