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

    public init(key: SyncRowKey, version: Int64, state: State) {
        self.key = key
        self.version = version
        self.state = state
    }

    /// The values of a live row; nil for a tombstone.
    public var values: [String: SyncValue]? {
        if case .live(let values, _) = state { return values }
        return nil
    }

    public var isLive: Bool { values != nil }
}
