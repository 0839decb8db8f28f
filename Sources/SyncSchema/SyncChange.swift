import Foundation

/// A change of one synced row, as a device pushes it and the server
/// applies it: its mutation id, what it does, the row, and the server's
/// version it was made on.
///
/// ```swift
/// let change = SyncChange(mutationID: UUID(), operation: .upsert,
///                         row: try note.row(id: id, values: ["title": .text("Groceries")], carrying: .changed),
///                         baseVersion: 41)
/// ```
public struct SyncChange: Sendable, Equatable {
    public enum Operation: String, Sendable {
        /// The row was inserted, or changed.
        case upsert
        case delete
    }

    /// Random, made with the change and the same on every retry: the
    /// server applies a change once.
    public var mutationID: UUID
    public var operation: Operation
    /// The row: for an upsert, the values of the columns it carries (every
    /// one the declaration has, or only those the change touched in a
    /// table merged by column); for a delete, none.
    public var row: SyncRow
    /// The server's version of the row when the change was made; nil for
    /// a row the server never sent.
    public var baseVersion: Int64?

    public init(mutationID: UUID, operation: Operation, row: SyncRow, baseVersion: Int64?) {
        self.mutationID = mutationID
        self.operation = operation
        self.row = row
        self.baseVersion = baseVersion
    }
}
