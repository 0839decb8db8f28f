import CipherDB
import Foundation
import SyncSchema

/// The device's side of the sync engine, for any app's declared tables
/// (``SyncSchema``): the outbox that records every insert, update and
/// delete of a synced table, whatever made it (records, SQL, another
/// process: the database's own triggers record them); the batches it
/// pushes and the server's answers recorded; a pull staged page by page
/// and merged in one transaction.
///
/// Synced tables store their UUIDs (the primary key and the columns that
/// reference another table) as uppercase text, as the engine writes them
/// (`DatabaseUUIDEncodingStrategy.uppercaseString` for records); the
/// triggers refuse any other form.
///
/// An app installs it in a migration, after its own tables:
///
/// ```swift
/// migrator.registerMigration("v2-sync") { db in
///     try db.installSyncEngine(for: schema)
/// }
/// ```
///
/// Its tables (the prefix `sync_` is reserved by declarations):
/// - `sync_outbox`: the local changes that the server has not acknowledged,
///   in push order (``SyncOutboxEntry``);
/// - `sync_row`: the server's version of each synced row, the base of the
///   next change of that row;
/// - `sync_conflict`: the local changes that lost to the server's state,
///   with both values (``SyncConflict``);
/// - `sync_lost`: the values of rows deleted by a merge while they had
///   unsent changes (a child of a row the server deleted), until they are
///   logged as conflicts;
/// - `sync_stage`: the server's rows and tombstones of a pull, page by
///   page, until they are merged in one transaction;
/// - `sync_merge`: whether a merge of the server's rows is under way, in
///   which the triggers record nothing (``CipherDB/Database/mergingSyncChanges(_:)``);
/// - `sync_state`: where the last merged pull left off (the endpoint, the
///   server's cursor there, its `ETag`, the server's digests there), and
///   the digests of the last page staged;
/// - `sync_digest`, `sync_digest_row`, `sync_digest_dirty`: the digest of
///   each table's synced rows (``SyncSchema/SyncTableDigest``), each
///   counted row's hash, and the rows written since they were counted,
///   which the triggers mark (Database+SyncDigests.swift).
public enum SyncEngine {
    static let outboxTable = "sync_outbox"
    static let rowTable = "sync_row"
    static let mergeTable = "sync_merge"
    static let conflictTable = "sync_conflict"
    static let lostTable = "sync_lost"
    static let stateTable = "sync_state"
    static let digestTable = "sync_digest"
    static let digestRowTable = "sync_digest_row"
    static let digestDirtyTable = "sync_digest_dirty"

    /// Creates the engine's tables, unless they exist.
    static func createTables(_ db: Database) throws {
        try db.execute(sql: """
            CREATE TABLE IF NOT EXISTS \(outboxTable) (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                mutation_id BLOB NOT NULL UNIQUE,
                table_name TEXT NOT NULL,
                row_id NOT NULL,
                operation TEXT NOT NULL CHECK (operation IN ('upsert', 'delete')),
                changed_columns TEXT NOT NULL,
                base_version INTEGER,
                -- Seconds since 1970.
                created_at REAL NOT NULL,
                sent_at REAL,
                sent_values TEXT);
            CREATE INDEX IF NOT EXISTS \(outboxTable)_row ON \(outboxTable) (table_name, row_id);
            CREATE TABLE IF NOT EXISTS \(rowTable) (
                table_name TEXT NOT NULL,
                row_id NOT NULL,
                version INTEGER NOT NULL,
                PRIMARY KEY (table_name, row_id)) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS \(conflictTable) (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                table_name TEXT NOT NULL,
                row_id NOT NULL,
                -- SyncRowJSON of the columns that differed; NULL: no local row.
                local_values TEXT,
                -- SyncRowJSON of the server's row; NULL: deleted on the server.
                server_values TEXT,
                server_version INTEGER,
                -- Seconds since 1970.
                changed_at REAL NOT NULL,
                detected_at REAL NOT NULL);
            CREATE TABLE IF NOT EXISTS \(lostTable) (
                table_name TEXT NOT NULL,
                row_id NOT NULL,
                column_name TEXT NOT NULL,
                value);
            CREATE TABLE IF NOT EXISTS \(mergeTable) (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                active INTEGER NOT NULL);
            INSERT OR IGNORE INTO \(mergeTable) (id, active) VALUES (1, 0);
            CREATE TABLE IF NOT EXISTS \(stateTable) (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                endpoint TEXT,
                cursor TEXT,
                etag TEXT);
            INSERT OR IGNORE INTO \(stateTable) (id) VALUES (1);
            CREATE TABLE IF NOT EXISTS \(digestTable) (
                table_name TEXT PRIMARY KEY NOT NULL,
                -- The value columns the hashes cover, each followed by a comma.
                columns TEXT NOT NULL,
                rows INTEGER NOT NULL,
                checksum INTEGER NOT NULL);
            CREATE TABLE IF NOT EXISTS \(digestRowTable) (
                table_name TEXT NOT NULL,
                row_id NOT NULL,
                hash INTEGER NOT NULL,
                PRIMARY KEY (table_name, row_id)) WITHOUT ROWID;
            CREATE TABLE IF NOT EXISTS \(digestDirtyTable) (
                table_name TEXT NOT NULL,
                row_id NOT NULL,
                PRIMARY KEY (table_name, row_id)) WITHOUT ROWID;
            """)
        // Databases made before the engine kept digests.
        let stateColumns = Set(try db.columns(in: stateTable).map { $0.name.lowercased() })
        for column in ["digests", "staged_digests"] where !stateColumns.contains(column) {
            try db.execute(sql: "ALTER TABLE \(stateTable) ADD COLUMN \(column) TEXT")
        }
        // A row's server version is part of its hash.
        for (event, reference, condition) in [("INSERT", "NEW", ""), ("UPDATE", "NEW", " WHEN OLD.version IS NOT NEW.version"),
                                               ("DELETE", "OLD", "")] {
            try db.execute(sql: """
                CREATE TRIGGER IF NOT EXISTS \(rowTable)_digest_\(event.lowercased()) AFTER \(event) ON \(rowTable)\(condition) BEGIN
                    INSERT OR IGNORE INTO \(digestDirtyTable) (table_name, row_id) VALUES (\(reference).table_name, \(reference).row_id);
                END
                """)
        }
    }
}
