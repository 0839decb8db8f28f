import Foundation
import Logging
import PostgresClient
import SyncSchema
import SyncServer

/// The digest of each declared table's live rows (``SyncTableDigest``),
/// kept in `sync_server_digest` as the embedded store keeps it: with the
/// columns its hashes cover, made anew by an instance of another
/// declaration when it starts, marked as not true (columns NULL) by the
/// writes of an instance whose columns differ.
extension PostgresSyncRows {
    /// In a writing transaction (the counter held): makes anew the
    /// digests that the declaration's columns lack (``SyncMissingDigests``).
    func makeMissingDigests() async throws {
        var missing = SyncMissingDigests(schema: schema, kept: try await digests())
        while let request = missing.nextRequest() {
            switch request {
            case .liveRows(let table, let after, let limit):
                missing.receive(try await stored(after.map { after in
                    """
                    SELECT \(unescaped: Self.columns) FROM sync_server_row
                    WHERE table_name = \(table) AND deleted_at IS NULL AND id > \(after) ORDER BY id LIMIT \(limit)
                    """
                } ?? """
                    SELECT \(unescaped: Self.columns) FROM sync_server_row
                    WHERE table_name = \(table) AND deleted_at IS NULL ORDER BY id LIMIT \(limit)
                    """))
            case .save(let digest, let partitions):
                try await connection.query(
                    """
                    INSERT INTO sync_server_digest (table_name, columns, row_count, checksum)
                    VALUES (\(digest.table), \(digest.storedColumns), \(Int64(digest.rows)), \(digest.storedChecksum))
                    ON CONFLICT (table_name) DO UPDATE SET columns = EXCLUDED.columns, row_count = EXCLUDED.row_count,
                        checksum = EXCLUDED.checksum
                    """,
                    logger: logger)
                try await connection.query("DELETE FROM sync_server_partition_digest WHERE table_name = \(digest.table)", logger: logger)
                try await savePartitionDigests(partitions)
            }
        }
    }

    /// Adds digests' rows and checksums to those kept of their partitions
    /// (none kept: zero).
    private func savePartitionDigests(_ partitions: [SyncPartitionDigest]) async throws {
        guard !partitions.isEmpty else { return }
        try await connection.query(
            """
            INSERT INTO sync_server_partition_digest AS d (table_name, partition_key, row_count, checksum)
            SELECT * FROM unnest(\(partitions.map(\.digest.table)), \(partitions.map(\.partition)),
                                 \(partitions.map { Int64($0.digest.rows) }), \(partitions.map(\.digest.storedChecksum)))
            ON CONFLICT (table_name, partition_key) DO UPDATE SET row_count = d.row_count + EXCLUDED.row_count,
                checksum = d.checksum # EXCLUDED.checksum
            """,
            logger: logger)
    }

    /// Applies a batch's changes of digests (``SyncChangePlan/digestChanges``)
    /// to the digests kept, by ``SyncKeptDigest/applying(_:to:)``: one
    /// statement reads them, one writes them; then those of its
    /// partitions, to the partitions' of the tables whose digest stays true.
    func applyDigestChanges(_ changes: [SyncTableDigest], partitions: [SyncPartitionDigest]) async throws {
        guard !changes.isEmpty else { return }
        let kept = try await connection.query(
            """
            SELECT table_name, columns, row_count, checksum FROM sync_server_digest WHERE table_name = ANY(\(changes.map(\.table)))
            """,
            logger: logger
        ).decode((String, String?, Int64, Int64).self).map { table, columns, rows, checksum in
            SyncKeptDigest(table: table, columns: columns, rows: Int(rows), checksum: checksum)
        }
        let digests = SyncKeptDigest.applying(changes, to: kept)
        guard !digests.isEmpty else { return }
        try await savePartitionDigests(SyncKeptDigest.partitionsKept(partitions, by: digests))
        // The driver's arrays hold no NULL: is_true says whether a digest
        // keeps its columns.
        try await connection.query(
            """
            UPDATE sync_server_digest d SET
                columns = CASE WHEN k.is_true THEN k.columns END, row_count = k.row_count, checksum = k.checksum
            FROM unnest(\(digests.map(\.table)), \(digests.map { $0.columns != nil }), \(digests.map { $0.columns ?? "" }),
                        \(digests.map { Int64($0.rows) }), \(digests.map(\.checksum))) AS k (table_name, is_true, columns, row_count, checksum)
            WHERE d.table_name = k.table_name
            """,
            logger: logger)
    }

    /// The digests of the declared tables that cover their columns, in
    /// table order.
    func digests() async throws -> [SyncTableDigest] {
        try await connection.query(
            PostgresQuery("SELECT table_name, columns, row_count, checksum FROM sync_server_digest ORDER BY table_name").prepared(),
            logger: logger
        ).decode((String, String?, Int64, Int64).self).compactMap { name, columns, rows, checksum in
            SyncTableDigest(kept: name, columns: columns, rows: Int(rows), checksum: checksum, schema: schema)
        }
    }
}
