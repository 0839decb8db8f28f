/// What a cursor of a sync protocol stands for: a change counter in one
/// history (an epoch) of one server's database. A client merges a delta
/// only from a cursor of the same server and epoch; a snapshot of another
/// epoch tells it that the server's history went back
/// (``SyncHistoryChange``).
///
/// ```swift
/// let position = try PlayersPayload.position(ofCursor: page.cursor!)
/// position?.counter // 42
/// ```
public struct SyncCursorPosition: Equatable, Sendable {
    /// The identity of the server's database, made when it was created.
    public var server: String
    /// The epoch of the database's history: a new one begins whenever the
    /// history may have gone back (a restore from a backup).
    public var epoch: String
    /// The server's change counter.
    public var counter: Int64

    public init(server: String, epoch: String, counter: Int64) {
        self.server = server
        self.epoch = epoch
        self.counter = counter
    }

    /// Whether both positions are in one history: the same server and epoch.
    public func isInHistory(of other: SyncCursorPosition) -> Bool {
        server == other.server && epoch == other.epoch
    }
}
