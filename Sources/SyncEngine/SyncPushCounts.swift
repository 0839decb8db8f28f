/// What recording the answers to one batch did.
public struct SyncPushCounts: Sendable, Equatable {
    public var applied = 0
    /// Changes that lost to the server's state, logged (``SyncConflict``).
    public var conflicts = 0
    /// Changes that lost to a server state equal to the local one.
    public var converged = 0

    public init(applied: Int = 0, conflicts: Int = 0, converged: Int = 0) {
        self.applied = applied
        self.conflicts = conflicts
        self.converged = converged
    }
}
