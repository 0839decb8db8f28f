import Foundation
import SyncSchema

/// The digests a store makes anew when it opens with a declaration: that
/// of each declared table whose kept digest does not cover the
/// declaration's columns (none yet, another declaration's, or one that
/// another declaration's write marked as not true), computed from every
/// live row, read a chunk at a time in id order. The rule, written once,
/// that every store follows in its opening transaction, synchronous or
/// not, a request at a time (as it reads for a write, ``SyncChangeReads``).
///
/// Not `Sendable`: it hashes with a ``SyncRowHasher`` of its own, in the
/// one transaction that makes the digests.
///
/// ```swift
/// var missing = SyncMissingDigests(schema: schema, kept: try store.digests())
/// while let request = missing.nextRequest() {
///     switch request {
///     case .liveRows(let table, let after, let limit): missing.receive(try store.liveRows(of: table, after: after, limit: limit))
///     case .save(let digest, let partitions): try store.save(digest, partitions)   // in place of the table's
///     }
/// }
/// ```
public struct SyncMissingDigests {
    public enum Request: Sendable, Equatable {
        /// The live rows of `table` whose ids come after `after` (from the
        /// first when nil), in id order, at most `limit`.
        case liveRows(table: String, after: UUID?, limit: Int)
        /// The digest to keep as its table's, in place of the one kept,
        /// with those of its partitions (``SyncPartitionDigest``), in
        /// place of every one kept.
        case save(SyncTableDigest, partitions: [SyncPartitionDigest])
    }

    /// The tables whose digests are still to make; the first one's rows
    /// are being read.
    private var tables: [SyncTable]
    /// The first table's digest, of the rows read so far.
    private var digest: SyncTableDigest?
    /// The first table's digest of each partition, of the rows read so far.
    private var partitions: [String: SyncTableDigest] = [:]
    private var after: UUID?
    /// Whether every live row of the first table was read.
    private var isRead = false
    private let chunkSize: Int
    private let hasher = SyncRowHasher()

    /// The digests to make for `schema`, given those the store keeps and
    /// gives it (``SyncTableDigest/init(kept:columns:rows:checksum:schema:)``).
    ///
    /// - Parameter chunkSize: the rows read at a time.
    public init(schema: SyncSchema, kept: [SyncTableDigest], chunkSize: Int = 10_000) {
        tables = schema.tables.filter { table in !kept.contains { $0.covers(table) } }
        self.chunkSize = chunkSize
    }

    /// What to read or write next; nil once every digest is made.
    public mutating func nextRequest() -> Request? {
        guard let table = tables.first else { return nil }
        guard isRead, let digest else {
            if digest == nil { digest = SyncTableDigest(table: table) }
            return .liveRows(table: table.name, after: after, limit: chunkSize)
        }
        tables.removeFirst()
        let partitions = self.partitions.keys.sorted().map { SyncPartitionDigest(partition: $0, digest: self.partitions[$0]!) }
        (self.digest, self.partitions, after, isRead) = (nil, [:], nil, false)
        return .save(digest, partitions: partitions)
    }

    /// The rows that answer the last ``Request/liveRows(table:after:limit:)``.
    public mutating func receive(_ rows: [SyncStoredRow]) {
        guard let table = tables.first, var digest else { preconditionFailure("no rows were asked for") }
        for row in rows {
            digest.add(row, in: table, hasher: hasher)
            if let partition = row.partition { partitions[partition, default: SyncTableDigest(table: table)].add(row, in: table, hasher: hasher) }
        }
        self.digest = digest
        after = rows.last?.key.id ?? after
        isRead = rows.count < chunkSize
    }
}
