import Hummingbird
import NIOCore
import NIOHTTPTypes

/// Gives Hummingbird's answer to a request that is not valid HTTP/1.1
/// (`400`, `Connection: close`, no body, written before any routing) the
/// JSON error body of every other answer. The API's own 400s always have
/// a body, so an empty one can only be Hummingbird's.
final class MalformedRequestAnswerHandler: ChannelOutboundHandler, RemovableChannelHandler {
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    static let body = #"{"error":{"message":"the request is not valid HTTP/1.1: check its request line and headers"}}"#

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .head(var head) = unwrapOutboundIn(data), head.status.code == 400,
              head.headerFields[.contentLength] == "0", head.headerFields[.connection] == "close"
        else {
            context.write(data, promise: promise)
            return
        }
        let body = ByteBuffer(string: Self.body)
        head.headerFields[.contentLength] = String(body.readableBytes)
        head.headerFields[.contentType] = "application/json; charset=utf-8"
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: promise)
    }
}
