/// A server's summary of its data at a cursor, which a store compares
/// with the same summary of its own synced data: how many items, and a
/// checksum whose form is the protocol's. Equal digests mean, but for a
/// collision of the checksum, the same data.
///
/// ```swift
/// let digest = SyncDigest(count: 12, checksum: "0123456789abcdef")
/// print(digest) // 12 items, checksum 0123456789abcdef
/// ```
public struct SyncDigest: Codable, Equatable, Sendable, CustomStringConvertible {
    public var count: Int
    public var checksum: String

    public init(count: Int, checksum: String) {
        self.count = count
        self.checksum = checksum
    }

    public var description: String {
        "\(count) item\(count == 1 ? "" : "s"), checksum \(checksum)"
    }
}

/// A store's synced data found different from the server's digest at the
/// same cursor: the digest of each. ``SyncClient`` then takes a snapshot,
/// which repairs the store, and reports what it found
/// (``SyncReport/repaired``).
public struct SyncDivergence: Codable, Equatable, Sendable {
    /// The digest of the store's synced data.
    public var local: SyncDigest
    /// The server's digest.
    public var server: SyncDigest

    public init(local: SyncDigest, server: SyncDigest) {
        self.local = local
        self.server = server
    }
}
