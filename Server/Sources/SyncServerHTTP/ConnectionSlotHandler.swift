import NIOCore
import NIOHTTPTypes

/// Tells ``OpenConnections`` when its connection opens, begins a request
/// (its head arrives), goes idle (its response ends) and closes.
final class ConnectionSlotHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    let connections: OpenConnections
    private var isCounted = false

    init(_ connections: OpenConnections) {
        self.connections = connections
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
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) { connections.busy(context.channel) }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { connections.idle(context.channel) }
        context.write(data, promise: promise)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if isCounted { connections.closed(context.channel) }
        context.fireChannelInactive()
    }
}
