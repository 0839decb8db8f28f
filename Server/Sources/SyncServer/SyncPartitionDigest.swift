import Foundation
import SyncSchema

/// The digest of a table's live rows in one partition (``SyncStoredRow/partition``),
/// which the stores keep beside the table's whole digest
/// (`sync_server_partition_digest`) while that one is true: a user's page
/// carries, for a table that is not shared, the combination of the
/// partitions they read (``combined(_:for:)``), so that a device checks
/// that it holds exactly the rows it may read.
///
/// ```swift
/// let digest = SyncPartitionDigest.combined(kept, for: table)   // the XOR of their checksums, the sum of their rows
/// ```
public struct SyncPartitionDigest: Sendable, Equatable {
    public var partition: String
    public var digest: SyncTableDigest

    public init(partition: String, digest: SyncTableDigest) {
        self.partition = partition
        self.digest = digest
    }

    /// The digest of a table's rows in these partitions (their digests of
    /// `table`'s columns), which a user reads.
    public static func combined(_ digests: [SyncTableDigest], for table: SyncTable) -> SyncTableDigest {
        var combined = SyncTableDigest(table: table)
        for digest in digests where digest.table == table.name { combined.toggle(digest.checksum, rows: digest.rows) }
        return combined
    }
}

extension SyncPartitionDigest {
    /// The digests of the rows a user reads, in table order, from the
    /// whole digests the store keeps true (`whole`) and the digests of the
    /// partitions the user reads (`partitions`, any order): a shared
    /// table's whole one, another's partitions combined.
    public static func readable(_ whole: [SyncTableDigest], partitions: [SyncTableDigest], schema: SyncSchema) -> [SyncTableDigest] {
        let shared = Set(schema.sharedTables)
        return whole.compactMap { digest in
            if shared.contains(digest.table) { return digest }
            guard let table = schema.table(digest.table) else { return nil }
            return combined(partitions, for: table)
        }
    }
}

extension SyncKeptDigest {
    /// The changes of partitions' digests that a store applies: those of
    /// the tables whose whole digest stays true once `applied`
    /// (``applying(_:to:)``); the others are made anew with it.
    public static func partitionsKept(_ changes: [SyncPartitionDigest], by applied: [SyncKeptDigest]) -> [SyncPartitionDigest] {
        let trueColumns = Dictionary(applied.compactMap { kept in kept.columns.map { (kept.table, $0) } }, uniquingKeysWith: { first, _ in first })
        return changes.filter { trueColumns[$0.digest.table] == $0.digest.storedColumns }
    }
}
