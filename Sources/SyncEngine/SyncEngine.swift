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
/// - `sync_digest`, `sync_digest_dirty`: the digest of each table's synced
///   rows (``SyncSchema/SyncTableDigest``), and the rows written since they
///   were counted, which the triggers mark; each counted row's hash is
///   kept beside its version in `sync_row` (Database+SyncDigests.swift).
public enum SyncEngine {
    package static let outboxTable = "sync_outbox"
    static let rowTable = "sync_row"
    static let mergeTable = "sync_merge"
    static let conflictTable = "sync_conflict"
    static let lostTable = "sync_lost"
    package static let stateTable = "sync_state"
    static let digestTable = "sync_digest"
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
                -- The row's hash as its table's digest counts it; NULL: not counted.
                hash INTEGER,
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
                detected_at REAL NOT NULL,
                -- Why the server refused the change; NULL: a conflict.
                refusal TEXT);
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
            CREATE TABLE IF NOT EXISTS \(digestDirtyTable) (
                table_name TEXT NOT NULL,
                row_id NOT NULL,
                -- The hash its digest counted for the row when its sync_row
                -- entry was deleted since: to be taken out.
                counted INTEGER,
                PRIMARY KEY (table_name, row_id)) WITHOUT ROWID;
            """)
        try addMissingColumns(db)
        try moveCountedHashes(db)
        // A row's server version is part of its hash; a deleted entry's
        // hash is kept until its digest is next counted.
        for (event, reference, condition) in [("INSERT", "NEW", ""), ("UPDATE", "NEW", " WHEN OLD.version IS NOT NEW.version"),
                                               ("DELETE", "OLD", "")] {
            let keepCounted = event != "DELETE" ? "" : """
                UPDATE \(digestDirtyTable) SET counted = OLD.hash
                WHERE OLD.hash IS NOT NULL AND table_name = OLD.table_name AND row_id = OLD.row_id;
                """
            try db.execute(sql: """
                CREATE TRIGGER IF NOT EXISTS \(rowTable)_digest_\(event.lowercased()) AFTER \(event) ON \(rowTable)\(condition) BEGIN
                    \(markDigestDirty(table: "\(reference).table_name", rowID: "\(reference).row_id"))
                    \(keepCounted)
                END
                """)
        }
    }

    /// The statement of a trigger that marks a row for its table's digest
    /// (`table` and `rowID`: SQL expressions). Not `INSERT OR IGNORE`: the
    /// statement that fires a trigger imposes its own conflict clause on
    /// the trigger's, and an `INSERT OR REPLACE` would then replace the
    /// mark, and the hash it keeps (`counted`), with a blank one.
    static func markDigestDirty(table: String, rowID: String) -> String {
        """
        INSERT INTO \(digestDirtyTable) (table_name, row_id) SELECT \(table), \(rowID)
        WHERE NOT EXISTS (SELECT 1 FROM \(digestDirtyTable) WHERE table_name = \(table) AND row_id = \(rowID));
        """
    }

    /// Whether `sync_row` keeps the counted hashes (`hash`): not yet in a
    /// database of an earlier engine before its next pull.
    static func keepsHashesInRows(_ db: Database) throws -> Bool {
        try db.columns(in: rowTable).contains { $0.name.lowercased() == "hash" }
    }

    /// Adds the columns that the engine's tables gained since a database
    /// was made: in its installation, and before the push records a
    /// refused change in a database made before refusals (the engine is
    /// installed once, in an app's migration). Cheap: one `table_info`
    /// per table.
    static func addMissingColumns(_ db: Database) throws {
        for (table, columns) in [(stateTable, ["digests", "staged_digests"]), (conflictTable, ["refusal"])] {
            let existing = Set(try db.columns(in: table).map { $0.name.lowercased() })
            for column in columns where !existing.contains(column) {
                try db.execute(sql: "ALTER TABLE \(table) ADD COLUMN \(column) TEXT")
            }
        }
    }

    /// Databases whose engine kept each counted hash in a table of its own
    /// (`sync_digest_row`, an extra lookup and write per row counted): the
    /// hashes move beside the versions in `sync_row`, and those of deleted
    /// entries to the marks of `sync_digest_dirty`; the triggers that mark
    /// rows are made again.
    private static func moveCountedHashes(_ db: Database) throws {
        if try !keepsHashesInRows(db) {
            try db.execute(sql: "ALTER TABLE \(rowTable) ADD COLUMN hash INTEGER")
        }
        if try !db.columns(in: digestDirtyTable).contains(where: { $0.name.lowercased() == "counted" }) {
            try db.execute(sql: "ALTER TABLE \(digestDirtyTable) ADD COLUMN counted INTEGER")
        }
        guard try db.tableExists("sync_digest_row") else { return }
        let ofRow = "counted.table_name = %@.table_name AND counted.row_id = %@.row_id"
        func of(_ table: String) -> String { ofRow.replacingOccurrences(of: "%@", with: table) }
        try db.execute(sql: """
            UPDATE \(rowTable) SET hash = (SELECT counted.hash FROM sync_digest_row AS counted WHERE \(of(rowTable)));
            INSERT OR IGNORE INTO \(digestDirtyTable) (table_name, row_id)
            SELECT table_name, row_id FROM sync_digest_row AS counted
            WHERE NOT EXISTS (SELECT 1 FROM \(rowTable) WHERE \(of(rowTable)));
            UPDATE \(digestDirtyTable) SET counted = (SELECT counted.hash FROM sync_digest_row AS counted WHERE \(of(digestDirtyTable)))
            WHERE NOT EXISTS (SELECT 1 FROM \(rowTable) AS synced
                              WHERE synced.table_name = \(digestDirtyTable).table_name AND synced.row_id = \(digestDirtyTable).row_id);
            DROP TABLE sync_digest_row;
            """)
        // Their marks were `INSERT OR IGNORE` (``markDigestDirty(table:rowID:)``):
        // made again, those of sync_row here, those of each declared table
        // by the pull that follows (``Database/prepareSyncDigests(schema:)``).
        for trigger in try String.fetchAll(db, sql: """
            SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'sync\\_%\\_digest\\_%' ESCAPE '\\'
            """) {
            try db.execute(sql: "DROP TRIGGER \(trigger.quotedDatabaseIdentifier)")
        }
    }
}
