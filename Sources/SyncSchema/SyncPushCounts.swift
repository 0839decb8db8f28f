/// What recording the server's answers to a push did, on a device of any
/// app (Players' and the engine's).
public struct SyncPushCounts: Sendable, Equatable, CustomStringConvertible {
    /// Changes the server applied.
    public var applied = 0
    /// Changes that lost to the server's state and were logged as
    /// conflicts, with both values: refused ones included.
    public var conflicts = 0
    /// Of ``conflicts``, the changes the server refused (its access rules).
    public var refused = 0
    /// Changes that lost to a server state equal to the local one: nothing
    /// to keep.
    public var converged = 0

    public init(applied: Int = 0, conflicts: Int = 0, converged: Int = 0, refused: Int = 0) {
        self.applied = applied
        self.conflicts = conflicts
        self.converged = converged
        self.refused = refused
    }

    /// `3 applied, 1 in conflict, 0 converged`; `…, 2 in conflict (1
    /// refused), …` when the server refused some.
    public var description: String {
        "\(applied) applied, \(conflicts) in conflict\(refused > 0 ? " (\(refused) refused)" : ""), \(converged) converged"
    }

    public static func += (lhs: inout SyncPushCounts, rhs: SyncPushCounts) {
        lhs.applied += rhs.applied
        lhs.conflicts += rhs.conflicts
        lhs.converged += rhs.converged
        lhs.refused += rhs.refused
    }
}
