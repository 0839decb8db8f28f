import PlayersProtocol

/// A page of a snapshot.
public struct SnapshotPage: Sendable, Equatable {
    /// The counter when the page was read: the cursor of the snapshot.
    public var version: Int64
    public var players: [ServerPlayer]
    public var isLast: Bool
    /// The digest of the live players at `version`, read with the page.
    public var digest: PlayersDigest?

    public init(version: Int64, players: [ServerPlayer], isLast: Bool, digest: PlayersDigest?) {
        self.version = version
        self.players = players
        self.isLast = isLast
        self.digest = digest
    }
}
