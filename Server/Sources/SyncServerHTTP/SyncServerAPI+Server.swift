import Foundation
import Hummingbird
import HummingbirdCore
import NIOCore

extension SyncServerAPI {
    /// HTTP/1.1 with the header, idle and read timeouts of the
    /// configuration, the idle connections closed first at the limit of
    /// connections (``OpenConnections``), and a JSON body in the answer to
    /// a request that is not HTTP.
    public var server: HTTPServerBuilder {
        let readTimeout = Self.timeAmount(configuration.readTimeout)
        let headerTimeout = Self.timeAmount(configuration.headerTimeout)
        let connections = OpenConnections(limit: configuration.maximumConnections)
        return .http1(configuration: .init(
            additionalChannelHandlers: [
                ConnectionSlotHandler(connections),
                ReadTimeoutHandler(headerTimeout: headerTimeout, timeout: readTimeout),
                MalformedRequestAnswerHandler(),
            ],
            idleTimeout: Self.timeAmount(configuration.idleTimeout)))
    }

    /// The address and the limit of connections of the configuration.
    public var applicationConfiguration: ApplicationConfiguration {
        ApplicationConfiguration(
            address: .hostname(configuration.host, port: configuration.port),
            serverName: "players-server",
            availableConnectionsDelegate: MaximumAvailableConnections(configuration.maximumConnections))
    }

    /// A duration as NIO counts it, clamped (from 1 ms to about 31 years,
    /// NaN as 1 s) rather than trapping in the conversion.
    static func timeAmount(_ seconds: TimeInterval) -> TimeAmount {
        guard !seconds.isNaN else { return .seconds(1) }
        return .nanoseconds(Int64(min(max(seconds, 0.001), 1e9) * 1e9))
    }
}
