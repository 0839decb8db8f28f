/// What a merge did.
public struct SyncMergeCounts: Sendable, Equatable {
    public var inserted = 0
    public var updated = 0
    public var deleted = 0
    /// Server rows the device already held as they are (its own changes,
    /// back from the server): nothing written.
    public var unchanged = 0
    /// Server rows and tombstones of rows with unsent changes, left for
    /// their push to settle against the server.
    public var leftAlone = 0
    /// Rows deleted by cascade while they had unsent changes, logged.
    public var conflicts = 0
    /// After the server's history went back: the synced rows it lost,
    /// kept (queued to be pushed again, or logged as conflicts).
    public var requeued = 0

    public init(inserted: Int = 0, updated: Int = 0, deleted: Int = 0, unchanged: Int = 0, leftAlone: Int = 0, conflicts: Int = 0,
                requeued: Int = 0) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
        self.unchanged = unchanged
        self.leftAlone = leftAlone
        self.conflicts = conflicts
        self.requeued = requeued
    }
}
