/// A column's foreign key: the row of another table (or of its own) that
/// it names by primary key, and what deleting that row does to it.
public struct SyncReference: Sendable, Equatable {
    public enum DeleteAction: String, Sendable, Equatable, Codable, CaseIterable {
        /// Deleting the parent deletes the row: every device gets the
        /// tombstones of both.
        case cascade
        /// A parent with rows referencing it cannot be deleted.
        case restrict
        /// Deleting the parent empties the column (which must not be
        /// required).
        case setNull = "set-null"
    }

    public let table: String
    public let onDelete: DeleteAction

    public init(table: String, onDelete: DeleteAction) {
        self.table = table
        self.onDelete = onDelete
    }
}
