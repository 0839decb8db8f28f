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
                missing.receive(try storedRows(db, sql: """
                    SELECT * FROM sync_server_row WHERE table_name = ? AND deleted_at IS NULL AND id > ? ORDER BY id LIMIT ?
                    """, arguments: [table, after?.uuidString ?? "", limit]))
            case .save(let digest):
                try db.execute(sql: """
                    INSERT OR REPLACE INTO sync_server_digest (table_name, columns, row_count, checksum) VALUES (?, ?, ?, ?)
                    """, arguments: [digest.table, digest.storedColumns, digest.rows, digest.storedChecksum])
            }
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
                           arguments: [digest.rows, digest.storedChecksum, change.table])
        }
    }

    /// The digests of the declared tables that cover their columns, in
    /// table order.
    func digests(_ db: Database) throws -> [SyncTableDigest] {
        try Row.fetchAll(db, sql: "SELECT table_name, columns, row_count, checksum FROM sync_server_digest ORDER BY table_name")
            .compactMap { row in
                SyncTableDigest(kept: row["table_name"], columns: row["columns"], rows: row["row_count"], checksum: row["checksum"],
                                schema: schema)
            }
    }
}
