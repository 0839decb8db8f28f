import PlayersProtocol

/// A page of a delta.
public struct DeltaPage: Sendable, Equatable {
    public enum Change: Sendable, Equatable {
        case player(ServerPlayer)
        case tombstone(ServerTombstone)
    }

    /// The cursor after this page.
    public var version: Int64
    /// The counter when the page was read, in the same transaction.
    public var serverVersion: Int64
    public var changes: [Change]
    public var isLast: Bool
    /// The digest of the live players at `serverVersion`, read in the same
    /// transaction.
    public var digest: PlayersDigest?

    /// The page after `since` of `changes`, read in version order, at most
    /// `limit + 1` of them (one more than a page, to know whether more
    /// follow): at most `limit` changes; its cursor is its last change's
    /// version, or the counter `serverVersion` when it is the last page.
    public init(cutting changes: [(version: Int64, change: Change)], limit: Int, since: Int64, serverVersion: Int64,
                digest: PlayersDigest?) {
        let page = changes.prefix(limit)
        let isLast = changes.count <= limit
        self.init(
            version: isLast ? serverVersion : (page.last?.version ?? since),
            serverVersion: serverVersion,
            changes: page.map(\.change),
            isLast: isLast,
            digest: digest)
    }

    public init(version: Int64, serverVersion: Int64, changes: [Change], isLast: Bool, digest: PlayersDigest?) {
        self.version = version
        self.serverVersion = serverVersion
        self.changes = changes
        self.isLast = isLast
        self.digest = digest
    }
}
