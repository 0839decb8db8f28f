import HTTPTypes
import Hummingbird
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import NIOPosix
import SyncServerHTTP
import TestSupport

/// A client of a players API served live in the test's own process: each
/// request on a connection of its own, so that requests sent at the same
/// time (a long-poll and the write that ends it) never wait behind each
/// other. A request unanswered within ``timeout`` (a hang guard) fails
/// with the request's name.
public struct APIClient: Sendable {
    /// How long a request may go unanswered: twice the hang guard, for the
    /// largest requests (a full batch of changes, on PostgreSQL).
    public static let timeout: Duration = hangGuard * 2

    public let port: Int

    /// Sends a request and returns its whole answer.
    public func execute(uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:], body: ByteBuffer? = nil) async throws -> APIResponse {
        var headers = headers
        if let body, headers[.contentLength] == nil {
            headers[.contentLength] = String(body.readableBytes)
        }
        let request = HTTPRequest(method: method, scheme: nil, authority: "localhost", path: uri, headerFields: headers)
        let connection = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    try channel.pipeline.syncOperations.addHandler(HTTP1ToHTTPClientCodec())
                    return try NIOAsyncChannel<HTTPResponsePart, HTTPRequestPart>(wrappingChannelSynchronously: channel)
                }
            }
        // Closing the connection ends the wait for the answer's next part.
        let hangGuard = connection.channel.eventLoop.scheduleTask(in: .seconds(Self.timeout.components.seconds)) {
            connection.channel.close(promise: nil)
        }
        defer { hangGuard.cancel() }
        let response = try await connection.executeThenClose { inbound, outbound -> APIResponse? in
            try await outbound.write(.head(request))
            if let body {
                try await outbound.write(.body(body))
            }
            try await outbound.write(.end(nil))
            var head: HTTPResponse?
            var received = ByteBuffer()
            for try await part in inbound {
                switch part {
                case .head(let answer) where answer.status.kind == .informational:
                    continue
                case .head(let answer):
                    head = answer
                case .body(var bytes):
                    received.writeBuffer(&bytes)
                case .end:
                    return head.map { APIResponse(head: $0, body: received) }
                }
            }
            return nil
        }
        guard let response else {
            throw TestFailure("the players API on port \(port) did not answer \(method) \(uri) within \(Self.timeout) (the hang guard), or closed the connection before its whole answer")
        }
        return response
    }

    /// Serves `router` on a free loopback port (``LiveServer``) and runs
    /// `body` with a client of it; then shuts the server down.
    public static func withServer<Value: Sendable>(
        _ router: Router<SyncRequestContext>, _ body: @Sendable (APIClient) async throws -> Value
    ) async throws -> Value {
        try await LiveServer.serve(router) { port in
            try await body(APIClient(port: port))
        }
    }
}
