import Foundation
import SyncSchema

/// One read of a snapshot page, as every store makes it: the live rows of
/// some tables in key order (table, then id), from the row after
/// `afterID` in the first of them, every one of them or those of the
/// user's partitions (``SyncRights/readablePartitions``). The rule of
/// which reads a page takes is written once (``SyncSchema/snapshotReads(after:tables:for:)``);
/// each store carries each read out in one query.
///
/// ```swift
/// for read in schema.snapshotReads(after: key, tables: filter, for: user) where rows.count < limit {
///     rows += read.byPartitions ? try rowsOfPartitions(read) : try rowsOfTable(read)
/// }
/// ```
public struct SyncSnapshotRead: Sendable, Equatable {
    /// The tables read, in key order: one table read whole, or a run of
    /// tables read by partitions, which one query walks in the user's
    /// part of the index of partitions.
    public let tables: [String]
    /// The id the read continues after, in its first table; nil: from the
    /// first table's first row.
    public let afterID: UUID?
    /// Whether only the rows of the user's partitions are read; else the
    /// table's every row.
    public let byPartitions: Bool

    /// The first table, whose rows after ``afterID`` are read.
    public var firstTable: String { tables[0] }

    /// The last table: no row of a later one is read.
    public var lastTable: String { tables[tables.count - 1] }
}

extension SyncSchema {
    /// The reads of a snapshot page after `key`, of the tables of `filter`
    /// (every declared one when nil), in key order (``SyncTableFilter/snapshotSteps(after:)``):
    /// for a user, a shared table whole, the next tables up to a shared
    /// one by their rows of the user's partitions, in one read, and a
    /// table without an access rule not at all; without one, every table
    /// whole, each in a read of its own.
    public func snapshotReads(after key: SyncRowKey?, tables filter: SyncTableFilter?, for user: SyncUser?) -> [SyncSnapshotRead] {
        var reads: [SyncSnapshotRead] = []
        for step in (filter ?? SyncTableFilter(tables.map(\.name))).snapshotSteps(after: key) {
            guard let table = table(step.table) else { continue }
            if user == nil || table.isShared {
                reads.append(SyncSnapshotRead(tables: [step.table], afterID: step.afterID, byPartitions: false))
            } else if table.access != nil {
                if let last = reads.last, last.byPartitions {
                    reads[reads.count - 1] = SyncSnapshotRead(tables: last.tables + [step.table], afterID: last.afterID, byPartitions: true)
                } else {
                    reads.append(SyncSnapshotRead(tables: [step.table], afterID: step.afterID, byPartitions: true))
                }
            }
        }
        return reads
    }
}
