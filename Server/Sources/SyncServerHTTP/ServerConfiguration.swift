import Foundation
import SyncServerAuth

/// The configuration of `players-server`: every parameter has a default.
public struct ServerConfiguration: Sendable {
    /// The address to listen on. Default: loopback.
    public var host: String = "127.0.0.1"
    public var port: Int = 8080
    /// Other names the server answers to (`Host` header), such as the name
    /// a reverse proxy passes on; the names of `host` are always accepted.
    public var allowedHosts: [String] = []
    /// The bearer token every `/v1` request must carry, if any: one token
    /// shared by every client.
    public var token: String?
    /// Signed identities instead (`--auth jwt`): every `/v1` request, and
    /// `/metrics`, carries a JSON Web Token that this verifies, and each
    /// table's access (format 2) says what its user may do. Then ``token``
    /// is nil.
    public var tokenVerifier: TokenVerifier?
    /// How long tombstones are kept; older cursors get `410 Gone`.
    /// Default: 30 days.
    public var tombstoneRetention: TimeInterval = 30 * 24 * 3600
    /// The page size when a request gives no `limit`, and the maximum.
    public var defaultPageSize: Int = 500
    public var maximumPageSize: Int = 5000
    /// The largest body of an edit of one row (`/v1/rows`), larger ones
    /// get 413: a row of an app's, whose text columns may be long.
    public var maximumRowBodySize: Int = 1024 * 1024
    /// The largest body of `POST /v1/sync/changes`, whose rows are an
    /// app's: a device cuts its batches to fit.
    public var maximumChangesBodySize: Int = 16 * 1024 * 1024
    /// How long a connection may stay open with no request in progress
    /// (or with request headers that do not end) before it is closed.
    public var idleTimeout: TimeInterval = 60
    /// How long a request may take to arrive, from its headers to the end
    /// of its body, before its connection is closed.
    public var readTimeout: TimeInterval = 30
    /// How long a new connection may take to send its first request's
    /// head before it is closed.
    public var headerTimeout: TimeInterval = 10
    /// The most connections open at once. At the limit, the connection
    /// idle for longest is closed to make room; only when every one has a
    /// request in progress do more wait to be accepted.
    public var maximumConnections: Int = 256
    /// How long `GET /ready` waits for the store's check before it
    /// answers 503.
    public var readinessTimeout: TimeInterval = 2
    /// Whether `POST /demo/refresh` (random changes, for the demo) is served.
    public var servesDemoRefresh = false

    public init() {}

    /// Whether requests must carry a bearer token: one shared token, or a
    /// user's signed one.
    var requiresBearerToken: Bool { token != nil || tokenVerifier != nil }
}
