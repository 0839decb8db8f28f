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
    /// Rows read at a time when a digest is computed anew.
    static let digestChunkSize = 10_000

    /// In the opening transaction: computes anew, from every live row, the
    /// digest of each declared table that has none of its columns.
    func makeMissingDigests(_ db: Database) throws {
        let hasher = SyncRowHasher()
        for table in schema.tables {
            var digest = SyncTableDigest(table: table)
            let columns = try String.fetchOne(db, sql: "SELECT columns FROM sync_server_digest WHERE table_name = ?", arguments: [table.name])
            guard columns != digest.storedColumns else { continue }
            var after = ""
            while true {
                let rows = try storedRows(db, sql: """
                    SELECT * FROM sync_server_row WHERE table_name = ? AND deleted_at IS NULL AND id > ? ORDER BY id LIMIT ?
                    """, arguments: [table.name, after, Self.digestChunkSize])
                for row in rows { digest.add(row, in: table, hasher: hasher) }
                guard rows.count == Self.digestChunkSize, let last = rows.last else { break }
                after = last.key.id.uuidString
            }
            try db.execute(sql: """
                INSERT OR REPLACE INTO sync_server_digest (table_name, columns, row_count, checksum) VALUES (?, ?, ?, ?)
                """, arguments: [table.name, digest.storedColumns, digest.rows, Int64(bitPattern: digest.checksum)])
        }
    }

    /// Applies a batch's changes of digests (``SyncChangePlan/digestChanges``)
    /// to the digests of the same columns, and marks another
    /// declaration's as not true.
    func applyDigestChanges(_ db: Database, _ changes: [SyncTableDigest]) throws {
        for change in changes {
            guard let stored = try Row.fetchOne(db, sql: "SELECT columns, row_count, checksum FROM sync_server_digest WHERE table_name = ?",
                                                arguments: [change.table]) else { continue }
            guard stored["columns"] as String? == change.storedColumns else {
                try db.execute(sql: "UPDATE sync_server_digest SET columns = NULL WHERE table_name = ?", arguments: [change.table])
                continue
            }
            var digest = SyncTableDigest(table: change.table, columns: change.columns, rows: stored["row_count"],
                                         checksum: UInt64(bitPattern: stored["checksum"]))
            digest.apply(change)
            try db.execute(sql: "UPDATE sync_server_digest SET row_count = ?, checksum = ? WHERE table_name = ?",
                           arguments: [digest.rows, Int64(bitPattern: digest.checksum), change.table])
        }
    }

    /// The digests of the declared tables that cover their columns, in
    /// table order.
    func digests(_ db: Database) throws -> [SyncTableDigest] {
        try Row.fetchAll(db, sql: "SELECT table_name, columns, row_count, checksum FROM sync_server_digest ORDER BY table_name")
            .compactMap { row in
                guard let table = schema.table(row["table_name"]) else { return nil }
                let digest = SyncTableDigest(table: table.name, columns: SyncTableDigest.columns(of: table), rows: row["row_count"],
                                             checksum: UInt64(bitPattern: row["checksum"]))
                return row["columns"] as String? == digest.storedColumns ? digest : nil
            }
    }
}
