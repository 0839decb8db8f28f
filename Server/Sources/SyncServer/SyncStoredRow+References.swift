import Foundation
import SyncSchema

/// A reference from a live row to another: the column that holds it, and
/// the row it names.
public struct SyncRowReference: Sendable, Hashable {
    public var column: String
    public var parent: SyncRowKey
    public var onDelete: SyncReference.DeleteAction
}

extension SyncStoredRow {
    /// The rows this live row references (its `uuid` columns that
    /// reference a table, when not null); none for a tombstone. Stores
    /// index them to find a row's children; the rules follow them.
    public func references(in table: SyncTable) -> [SyncRowReference] {
        guard let values else { return [] }
        return Self.references(of: values, in: table)
    }

    /// The references that these values hold.
    static func references(of values: [String: SyncValue], in table: SyncTable) -> [SyncRowReference] {
        table.columns.compactMap { column in
            guard let reference = column.references, case .uuid(let id)? = values[column.name] else { return nil }
            return SyncRowReference(column: column.name, parent: SyncRowKey(table: reference.table, id: id), onDelete: reference.onDelete)
        }
    }
}
