import Foundation

/// Where the last merged sync of a store left off: the endpoint it came
/// from, the server's cursor there, and the `ETag` of the server's answer
/// at that cursor. A ``SyncStore`` keeps it with the data it merged.
///
/// ```swift
/// let position = SyncPosition(endpoint: "http://127.0.0.1:8080/v1/sync/rows?tables=player", cursor: "42", etag: nil)
/// position.cursor(for: URL(string: "http://127.0.0.1:8080/v1/sync/rows?tables=player")!) // "42"
/// ```
public struct SyncPosition: Equatable, Sendable {
    /// The endpoint that `cursor` and `etag` belong to.
    public var endpoint: String?
    /// The server's opaque position after the last merged sync.
    public var cursor: String?
    /// The `ETag` of the server's answer at `cursor`, for `If-None-Match`.
    public var etag: String?

    public init(endpoint: String? = nil, cursor: String? = nil, etag: String? = nil) {
        self.endpoint = endpoint
        self.cursor = cursor
        self.etag = etag
    }

    /// The cursor, if it belongs to this endpoint: a sync from another
    /// endpoint takes a snapshot.
    public func cursor(for endpoint: URL) -> String? {
        self.endpoint == endpoint.absoluteString ? cursor : nil
    }
}
