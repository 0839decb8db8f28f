import HTTPTypes
import NIOCore

/// A whole answer of the players API to a test: its head and its body.
public struct APIResponse: Sendable {
    public let head: HTTPResponse
    public let body: ByteBuffer

    public var status: HTTPResponse.Status { head.status }
    public var headers: HTTPFields { head.headerFields }
}
