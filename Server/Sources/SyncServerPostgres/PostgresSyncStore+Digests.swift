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
    /// Rows read at a time when a digest is computed anew.
    static let digestChunkSize = 10_000

    /// In a writing transaction (the counter held): computes anew, from
    /// every live row, the digest of each declared table that has none of
    /// its columns.
    func makeMissingDigests() async throws {
        let hasher = SyncRowHasher()
        for table in schema.tables {
            var digest = SyncTableDigest(table: table)
            let stored = try await connection.query(
                "SELECT columns FROM sync_server_digest WHERE table_name = \(table.name)", logger: logger
            ).first(String?.self)
            guard stored ?? nil != digest.storedColumns else { continue }
            var after: UUID?
            while true {
                let rows: [SyncStoredRow]
                if let after {
                    rows = try await self.stored("""
                        SELECT \(unescaped: Self.columns) FROM sync_server_row
                        WHERE table_name = \(table.name) AND deleted_at IS NULL AND id > \(after) ORDER BY id LIMIT \(Self.digestChunkSize)
                        """)
                } else {
                    rows = try await self.stored("""
                        SELECT \(unescaped: Self.columns) FROM sync_server_row
                        WHERE table_name = \(table.name) AND deleted_at IS NULL ORDER BY id LIMIT \(Self.digestChunkSize)
                        """)
                }
                for row in rows { digest.add(row, in: table, hasher: hasher) }
                guard rows.count == Self.digestChunkSize, let last = rows.last else { break }
                after = last.key.id
            }
            try await connection.query(
                """
                INSERT INTO sync_server_digest (table_name, columns, row_count, checksum)
                VALUES (\(table.name), \(digest.storedColumns), \(Int64(digest.rows)), \(Int64(bitPattern: digest.checksum)))
                ON CONFLICT (table_name) DO UPDATE SET columns = EXCLUDED.columns, row_count = EXCLUDED.row_count,
                    checksum = EXCLUDED.checksum
                """,
                logger: logger)
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
                        \(changes.map { Int64(bitPattern: $0.checksum) })) AS c (table_name, columns, row_count, checksum)
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
            guard let table = schema.table(name) else { return nil }
            let digest = SyncTableDigest(table: table.name, columns: SyncTableDigest.columns(of: table), rows: Int(rows),
                                         checksum: UInt64(bitPattern: checksum))
            return columns == digest.storedColumns ? digest : nil
        }
    }
}
