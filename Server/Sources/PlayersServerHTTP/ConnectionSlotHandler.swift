import NIOCore
import NIOHTTPTypes

/// Tells ``OpenConnections`` when its connection opens, begins a request
/// (its head arrives), goes idle (its response ends) and closes; and
/// closes a connection whose first request's head does not arrive within
/// `headerTimeout`, so that a connection that sends nothing holds no slot
/// for long. (Later requests of a kept-alive connection are bounded by
/// the idle timeout, and a request's body by the read timeout.)
final class ConnectionSlotHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    let connections: OpenConnections
    let headerTimeout: TimeAmount
    private var isCounted = false
    private var headerDeadline: Scheduled<Void>?

    init(_ connections: OpenConnections, headerTimeout: TimeAmount) {
        self.connections = connections
        self.headerTimeout = headerTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { opened(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        opened(context)
        context.fireChannelActive()
    }

    private func opened(_ context: ChannelHandlerContext) {
        guard !isCounted else { return }
        isCounted = true
        connections.opened(context.channel)
        let channel = context.channel
        headerDeadline = context.eventLoop.scheduleTask(in: headerTimeout) { channel.close(promise: nil) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) {
            headerDeadline?.cancel()
            headerDeadline = nil
            connections.busy(context.channel)
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { connections.idle(context.channel) }
        context.write(data, promise: promise)
    }

    func channelInactive(context: ChannelHandlerContext) {
        headerDeadline?.cancel()
        headerDeadline = nil
        if isCounted { connections.closed(context.channel) }
        context.fireChannelInactive()
    }
}
