import Foundation
import SyncSchema

/// One read of a snapshot page, as every store makes it: a table's live
/// rows after an id, in id order, every one of them or those of the
/// user's partitions (``SyncRights/readablePartitions``). The rule of
/// which reads a page takes is written once (``SyncSchema/snapshotReads(after:tables:for:)``);
/// each store carries each read out in its own query.
///
/// ```swift
/// for read in schema.snapshotReads(after: key, tables: filter, for: user) where rows.count < limit {
///     rows += read.byPartitions ? try rowsOfPartitions(read) : try rowsOfTable(read)
/// }
/// ```
public struct SyncSnapshotRead: Sendable, Equatable {
    public let table: String
    /// The id the read continues after; nil: from the table's first row.
    public let afterID: UUID?
    /// Whether only the rows of the user's partitions are read; else the
    /// table's every row.
    public let byPartitions: Bool
}

extension SyncSchema {
    /// The reads of a snapshot page after `key`, of the tables of `filter`
    /// (every declared one when nil), a table at a time in key order
    /// (``SyncTableFilter/snapshotSteps(after:)``): for a user, a shared
    /// table whole, another's rows of their partitions, and a table
    /// without an access rule not at all; without one, every table whole.
    public func snapshotReads(after key: SyncRowKey?, tables filter: SyncTableFilter?, for user: SyncUser?) -> [SyncSnapshotRead] {
        (filter ?? SyncTableFilter(tables.map(\.name))).snapshotSteps(after: key).compactMap { step in
            guard let table = table(step.table) else { return nil }
            if user == nil || table.isShared { return SyncSnapshotRead(table: step.table, afterID: step.afterID, byPartitions: false) }
            guard table.access != nil else { return nil }
            return SyncSnapshotRead(table: step.table, afterID: step.afterID, byPartitions: true)
        }
    }
}
