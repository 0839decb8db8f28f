import Foundation
import HTTPTypes
import NIOCore
import NIOFoundationCompat

/// A whole answer of the players API to a test: its head and its body.
public struct APIResponse: Sendable {
    public let head: HTTPResponse
    public let body: ByteBuffer

    public var status: HTTPResponse.Status { head.status }
    public var headers: HTTPFields { head.headerFields }

    /// The message of a JSON error, `{"error": {"message": "…"}}`; nil for
    /// any other body.
    public var errorMessage: String? {
        let object = try? JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: [String: String]]
        return object?["error"]?["message"]
    }
}
