import CipherDB
import Foundation
import SyncSchema
import SyncServer

/// The digest of each declared table's live rows (``SyncTableDigest``),
/// kept in `sync_server_digest` in the transaction of every write, with
/// the columns its hashes cover: a program of another declaration on the
/// same file makes its own anew when it opens, and the writes of either
/// leave the other's marked as not true (columns NULL) rather than wrong.
extension ServerSyncDatabase {
    /// In the opening transaction: makes anew the digests that the
    /// declaration's columns lack (``SyncMissingDigests``).
    func makeMissingDigests(_ db: Database) throws {
        var missing = SyncMissingDigests(schema: schema, kept: try digests(db))
        while let request = missing.nextRequest() {
            switch request {
            case .liveRows(let table, let after, let limit):
                missing.receive(try storedRows(db.cachedStatement(sql: """
                    SELECT * FROM sync_server_row WHERE table_name = ? AND deleted_at IS NULL AND id > ? ORDER BY id LIMIT ?
                    """), arguments: [table, after?.uuidString ?? "", limit]))
            case .save(let digest, let partitions):
                try db.execute(sql: """
                    INSERT OR REPLACE INTO sync_server_digest (table_name, columns, row_count, checksum) VALUES (?, ?, ?, ?)
                    """, arguments: [digest.table, digest.storedColumns, digest.rows, digest.storedChecksum])
                try db.execute(sql: "DELETE FROM sync_server_partition_digest WHERE table_name = ?", arguments: [digest.table])
                for partition in partitions {
                    try db.execute(sql: """
                        INSERT INTO sync_server_partition_digest (table_name, partition_key, row_count, checksum) VALUES (?, ?, ?, ?)
                        """, arguments: [digest.table, partition.partition, partition.digest.rows, partition.digest.storedChecksum])
                }
            }
        }
    }

    /// Applies a batch's changes of digests (``SyncChangePlan/digestChanges``)
    /// to the digests kept, by ``SyncKeptDigest/applying(_:to:)``, and
    /// those of its partitions to the partitions' of the tables whose
    /// digest stays true.
    func applyDigestChanges(_ db: Database, _ changes: [SyncTableDigest], partitions: [SyncPartitionDigest]) throws {
        guard !changes.isEmpty else { return }
        let tables = changes.map(\.table)
        let kept = try Row.fetchAll(db, sql: """
            SELECT table_name, columns, row_count, checksum FROM sync_server_digest
            WHERE table_name IN (\(databaseQuestionMarks(count: tables.count)))
            """, arguments: StatementArguments(tables)).map { row in
            SyncKeptDigest(table: row["table_name"], columns: row["columns"], rows: row["row_count"], checksum: row["checksum"])
        }
        let applied = SyncKeptDigest.applying(changes, to: kept)
        for digest in applied {
            try db.execute(sql: "UPDATE sync_server_digest SET columns = ?, row_count = ?, checksum = ? WHERE table_name = ?",
                           arguments: [digest.columns, digest.rows, digest.checksum, digest.table])
        }
        for change in SyncKeptDigest.partitionsKept(partitions, by: applied) {
            // SQLite has no XOR operator: the sum is made here.
            let kept = try Row.fetchOne(db.cachedStatement(sql: """
                SELECT row_count, checksum FROM sync_server_partition_digest WHERE table_name = ? AND partition_key = ?
                """), arguments: [change.digest.table, change.partition])
            try db.execute(sql: """
                INSERT OR REPLACE INTO sync_server_partition_digest (table_name, partition_key, row_count, checksum) VALUES (?, ?, ?, ?)
                """, arguments: [change.digest.table, change.partition, (kept?[0] ?? 0) + change.digest.rows,
                                 (kept?[1] ?? 0) ^ change.digest.storedChecksum])
        }
    }

    /// The digests of the declared tables that cover their columns, in
    /// table order, of the rows `user` reads (every row when nil): a
    /// shared table's whole digest, another's partitions that the user
    /// reads, combined.
    func digests(_ db: Database, for user: SyncUser?) throws -> [SyncTableDigest] {
        let whole = try digests(db)
        guard let user else { return whole }
        let readable = try Row.fetchAll(db.cachedStatement(sql: """
            SELECT table_name, row_count, checksum FROM sync_server_partition_digest WHERE \(Self.readablePartitions)
            """), arguments: StatementArguments(Self.readablePartitionsArguments(user))).map { row in
            SyncTableDigest(table: row["table_name"], columns: [], rows: row["row_count"], checksum: UInt64(bitPattern: row["checksum"]))
        }
        return SyncPartitionDigest.readable(whole, partitions: readable, schema: schema)
    }

    /// The digests of the declared tables that cover their columns, in
    /// table order.
    func digests(_ db: Database) throws -> [SyncTableDigest] {
        try Row.fetchAll(db.cachedStatement(sql: "SELECT table_name, columns, row_count, checksum FROM sync_server_digest ORDER BY table_name"))
            .compactMap { row in
                SyncTableDigest(kept: row["table_name"], columns: row["columns"], rows: row["row_count"], checksum: row["checksum"],
                                schema: schema)
            }
    }
}
