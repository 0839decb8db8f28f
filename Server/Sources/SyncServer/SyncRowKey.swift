import Foundation

/// Which row: its table and its primary key.
public struct SyncRowKey: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var table: String
    public var id: UUID

    public init(table: String, id: UUID) {
        self.table = table
        self.id = id
    }

    /// Table by table, then by id: the order in which a store may lock
    /// rows, the same in every transaction.
    public static func < (lhs: SyncRowKey, rhs: SyncRowKey) -> Bool {
        (lhs.table, lhs.id.uuidString) < (rhs.table, rhs.id.uuidString)
    }

    public var description: String { "\(table) \(id.uuidString)" }
}
