import Foundation

/// The configuration of `players-server`: every parameter has a default.
public struct ServerConfiguration: Sendable {
    /// The address to listen on. Default: loopback.
    public var host: String = "127.0.0.1"
    public var port: Int = 8080
    /// The bearer token every `/v1` request must carry, if any.
    public var token: String?
    /// How long tombstones are kept; older cursors get `410 Gone`.
    /// Default: 30 days.
    public var tombstoneRetention: TimeInterval = 30 * 24 * 3600
    /// The page size when a request gives no `limit`, and the maximum.
    public var defaultPageSize: Int = 500
    public var maximumPageSize: Int = 5000
    /// The largest request body accepted; larger ones get 413.
    public var maximumBodySize: Int = 16 * 1024

    public init() {}
}
