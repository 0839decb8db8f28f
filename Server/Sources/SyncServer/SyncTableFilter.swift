import Foundation

/// Some of the declared tables, which a read of the store covers instead
/// of every one: a device's (`GET /v1/sync/rows?tables=…`), or the
/// players' table alone. A snapshot page over them reads each table's
/// rows in key order, one table after another (``snapshotSteps(after:)``),
/// so that every read walks its table's part of the key's index and no
/// other table's rows.
///
/// ```swift
/// let filter = SyncTableFilter(["note", "notebook"])
/// filter.snapshotSteps(after: SyncRowKey(table: "note", id: id))   // [("note", id), ("notebook", nil)]
/// ```
public struct SyncTableFilter: Sendable, Hashable {
    /// The tables, sorted (the snapshot's key order), each once.
    public let tables: [String]

    public init(_ tables: some Sequence<String>) {
        // Sorted, then each once: no set to hash (a request names one
        // table or a few).
        var unique: [String] = []
        for table in tables.sorted() where unique.last != table { unique.append(table) }
        self.tables = unique
    }

    public func contains(_ table: String) -> Bool {
        tables.contains(table)
    }

    /// The reads of a snapshot page that continues after `key`: `key`'s
    /// table from the row after it, when it is one of the tables, then
    /// each later table from its first row.
    public func snapshotSteps(after key: SyncRowKey?) -> [(table: String, afterID: UUID?)] {
        tables.compactMap { table in
            guard let key else { return (table, nil) }
            if table == key.table { return (table, key.id) }
            return table > key.table ? (table, nil) : nil
        }
    }

    /// `note,notebook`: the tables as a query names them.
    public var queryValue: String {
        tables.joined(separator: ",")
    }
}
