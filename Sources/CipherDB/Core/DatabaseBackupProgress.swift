/// The progress of a backup, reported after each step.
///
/// See <https://www.sqlite.org/c3ref/backup_finish.html#sqlite3backupremaining>.
public struct DatabaseBackupProgress: Sendable, Hashable {
    /// The number of pages still to copy.
    public let remainingPageCount: Int
    /// The number of pages of the source database.
    public let totalPageCount: Int
    /// The number of pages already copied.
    public var completedPageCount: Int { totalPageCount - remainingPageCount }
    /// Whether the backup is complete.
    public let isCompleted: Bool
}
