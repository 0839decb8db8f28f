/// A page of a snapshot.
public struct SnapshotPage: Sendable, Equatable {
    /// The counter when the page was read: the cursor of the snapshot.
    public var version: Int64
    public var players: [ServerPlayer]
    public var isLast: Bool

    public init(version: Int64, players: [ServerPlayer], isLast: Bool) {
        self.version = version
        self.players = players
        self.isLast = isLast
    }
}
