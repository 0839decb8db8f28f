import Foundation
import SyncSchema

/// A row as the server stores it: alive with its values, or deleted (a
/// tombstone), with the version of its last change.
///
/// Every change takes the next value of one server-wide counter. A live
/// row also keeps, for each column, the version of the change that last
/// set it: a table merged by column applies an edit of a column that no
/// one else changed since the edit's base version.
///
/// ```swift
/// let row = SyncStoredRow(key: SyncRowKey(table: "note", id: id), version: 7,
///                         state: .live(values: ["title": .text("Groceries")], columnVersions: ["title": 7]))
/// ```
public struct SyncStoredRow: Sendable, Equatable {
    public enum State: Sendable, Equatable {
        /// The values of the columns the row has (a column that a later
        /// declaration added, never set, is absent), and the version that
        /// last set each.
        case live(values: [String: SyncValue], columnVersions: [String: Int64])
        /// Deleted at this date: the tombstone that tells clients.
        case deleted(at: Date)
    }

    public var key: SyncRowKey
    public var version: Int64
    public var state: State
    /// The user whose write created the row, under signed identities
    /// (``SyncUser``): kept for as long as the row and its tombstone, never
    /// taken from what a change carries. Nil for a row the server or a
    /// client of the shared token created.
    public var owner: String?
    /// The partition whose readers see the row (``SyncPartition``),
    /// computed from the row and its owner when it is written, and kept
    /// by its tombstone: nil in a shared table, or in one without an
    /// access rule.
    public var partition: String?

    public init(key: SyncRowKey, version: Int64, state: State, owner: String? = nil, partition: String? = nil) {
        self.key = key
        self.version = version
        self.state = state
        self.owner = owner
        self.partition = partition
    }

    /// The values of a live row; nil for a tombstone.
    public var values: [String: SyncValue]? {
        if case .live(let values, _) = state { return values }
        return nil
    }

    public var isLive: Bool { values != nil }
}
