import SyncSchema

/// A store's synced data found different from the server's digests at the
/// same cursor: the digests of the tables that differ, the store's and the
/// server's, in the order of the server's digests. ``SyncClient`` then
/// takes a snapshot, which repairs the store, and reports what it found
/// (``SyncReport/repaired``).
///
/// ```swift
/// let divergence = SyncDivergence(
///     local: [SyncTableDigest(table: "note", columns: ["notebook", "title", "body"], rows: 3, checksum: 0x1f0c)],
///     server: [SyncTableDigest(table: "note", columns: ["notebook", "title", "body"], rows: 3, checksum: 0x8e21)])
/// print(divergence)
/// // here note: 3 rows, checksum 0000000000001f0c; on the server note: 3 rows, checksum 0000000000008e21
/// ```
public struct SyncDivergence: Codable, Equatable, Sendable, CustomStringConvertible {
    /// The digests of the store's synced rows of the tables that differ.
    public var local: [SyncTableDigest]
    /// The server's digests of the same tables, in the same order.
    public var server: [SyncTableDigest]

    public init(local: [SyncTableDigest], server: [SyncTableDigest]) {
        self.local = local
        self.server = server
    }

    /// `here note: 3 rows, checksum …; on the server note: 3 rows, checksum …`,
    /// the tables of each side joined by "and" (a digest's own text holds a
    /// comma).
    public var description: String {
        func text(_ digests: [SyncTableDigest]) -> String {
            digests.map(\.description).joined(separator: " and ")
        }
        return "here \(text(local)); on the server \(text(server))"
    }
}
