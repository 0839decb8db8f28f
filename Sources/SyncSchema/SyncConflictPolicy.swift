/// What a table does when a device's change meets another change of the
/// same row on the server.
public enum SyncConflictPolicy: String, Sendable, Equatable, Codable, CaseIterable {
    /// The server's row wins; the device's change is kept in its conflict
    /// log, to resolve by hand.
    case serverWins = "server-wins"
    /// Edits of different columns of a row both survive; only an edit of
    /// the same column by two devices is a conflict, kept with both values.
    case mergeByColumn = "merge-by-column"
}
