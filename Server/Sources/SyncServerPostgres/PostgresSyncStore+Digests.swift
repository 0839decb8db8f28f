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
            case .save(let digest):
                try await connection.query(
                    """
                    INSERT INTO sync_server_digest (table_name, columns, row_count, checksum)
                    VALUES (\(digest.table), \(digest.storedColumns), \(Int64(digest.rows)), \(digest.storedChecksum))
                    ON CONFLICT (table_name) DO UPDATE SET columns = EXCLUDED.columns, row_count = EXCLUDED.row_count,
                        checksum = EXCLUDED.checksum
                    """,
                    logger: logger)
            }
        }
    }

    /// Applies a batch's changes of digests (``SyncChangePlan/digestChanges``)
    /// to the digests of the same columns, and marks another
    /// declaration's as not true: one statement.
    func applyDigestChanges(_ changes: [SyncTableDigest]) async throws {
        guard !changes.isEmpty else { return }
        try await connection.query(
            """
            UPDATE sync_server_digest d SET
                row_count = CASE WHEN d.columns = c.columns THEN d.row_count + c.row_count ELSE d.row_count END,
                checksum = CASE WHEN d.columns = c.columns THEN d.checksum # c.checksum ELSE d.checksum END,
                columns = CASE WHEN d.columns = c.columns THEN d.columns END
            FROM unnest(\(changes.map(\.table)), \(changes.map(\.storedColumns)), \(changes.map { Int64($0.rows) }),
                        \(changes.map(\.storedChecksum))) AS c (table_name, columns, row_count, checksum)
            WHERE d.table_name = c.table_name
            """,
            logger: logger)
    }

    /// The digests of the declared tables that cover their columns, in
    /// table order.
    func digests() async throws -> [SyncTableDigest] {
        try await connection.query(
            "SELECT table_name, columns, row_count, checksum FROM sync_server_digest ORDER BY table_name", logger: logger
        ).decode((String, String?, Int64, Int64).self).compactMap { name, columns, rows, checksum in
            SyncTableDigest(kept: name, columns: columns, rows: Int(rows), checksum: checksum, schema: schema)
        }
    }
}
