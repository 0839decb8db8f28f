import NIOCore
import NIOHTTPTypes

/// Closes a connection whose request does not arrive in time: a new
/// connection whose first request head does not come within
/// `headerTimeout`, and a request that does not arrive whole (head to end
/// of body) within `timeout`. So a client that connects and sends
/// nothing, sends slowly, or stops, holds no connection for long.
/// (Between the requests of a kept-alive connection, Hummingbird's idle
/// timeout applies.)
final class ReadTimeoutHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    let headerTimeout: TimeAmount
    let timeout: TimeAmount
    private var hasHadRequest = false
    private var deadline: Scheduled<Void>?

    init(headerTimeout: TimeAmount, timeout: TimeAmount) {
        self.headerTimeout = headerTimeout
        self.timeout = timeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { awaitFirstHead(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        awaitFirstHead(context)
        context.fireChannelActive()
    }

    private func awaitFirstHead(_ context: ChannelHandlerContext) {
        guard !hasHadRequest, deadline == nil else { return }
        closeUnlessDone(context, within: headerTimeout)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            hasHadRequest = true
            closeUnlessDone(context, within: timeout)
        case .body:
            break
        case .end:
            deadline?.cancel()
            deadline = nil
        }
        context.fireChannelRead(data)
    }

    /// Replaces the deadline with one `delay` from now.
    private func closeUnlessDone(_ context: ChannelHandlerContext, within delay: TimeAmount) {
        deadline?.cancel()
        let channel = context.channel
        deadline = context.eventLoop.scheduleTask(in: delay) { channel.close(promise: nil) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        context.fireChannelInactive()
    }
}
