import SyncSchema

/// The triggers that record a declared table's changes in the outbox, as
/// SQL that SQLite 3.15 runs without any function of ours, so that every
/// writer of the file records its changes, another process's too.
///
/// - An insert records an upsert of every column; after an unsent delete
///   of the same row (deleted, then inserted again) that entry becomes the
///   upsert.
/// - An update records the columns whose values changed (`IS NOT`: NULL
///   to a value is a change), added to the unsent entry of the row if
///   there is one: the server sees the last values of several offline
///   edits, and every column they touched.
/// - A delete drops the row's unsent entries and records a delete, unless
///   the server never heard of the row (no version, no entry sent).
/// - A change of a synced row's primary key is refused.
/// - A UUID stored otherwise than as uppercase text (a blob, lowercase) is
///   refused: the merge writes them so, and a row stored in two forms
///   would be two rows.
///
/// Every insert, update of a value and delete, the merge's too, marks the
/// row for its table's digest (`sync_digest_dirty`), which counts it again
/// when it is next read (Database+SyncDigests.swift).
///
/// None records while a merge of the server's rows is under way
/// (`sync_merge.active`), nor an update that changes no value. Then a
/// deleted row is the server's delete (or cascades from one): the row
/// forgets its server version, and if it had unsent changes its values
/// are kept in `sync_lost`, to be logged as a conflict.
struct SyncTriggers {
    let table: SyncTable

    init(_ table: SyncTable) {
        self.table = table
    }

    /// The columns recorded as changed: all but the primary key.
    var valueColumns: [String] {
        table.valueColumns.map(\.name)
    }

    /// Every value column, as `changed_columns` lists them: an SQL text.
    private var allColumns: String {
        "'" + SyncOutboxEntry.storedColumns(valueColumns) + "'"
    }

    /// Seconds since 1970, as Foundation's Date reads them.
    private let now = "(julianday('now') - 2440587.5) * 86400.0"

    private let insertEntry = """
        INSERT INTO \(SyncEngine.outboxTable) (mutation_id, table_name, row_id, operation, changed_columns, base_version, created_at)
        """

    /// Records an upsert of every row that the server never sent (no
    /// version) and no change waits for, as the insert trigger records a
    /// new row: a row written while the triggers were silent.
    var requeueNeverSynced: String {
        let key = "\"\(table.primaryKey)\""
        let ofRow = "table_name = '\(table.name)' AND row_id = local.\(key)"
        return """
            \(insertEntry)
            SELECT randomblob(16), '\(table.name)', local.\(key), 'upsert', \(allColumns), NULL, \(now) FROM "\(table.name)" AS local
            WHERE NOT EXISTS (SELECT 1 FROM \(SyncEngine.rowTable) WHERE \(ofRow))
            AND NOT EXISTS (SELECT 1 FROM \(SyncEngine.outboxTable) WHERE \(ofRow))
            """
    }

    var statements: [String] {
        let name = table.name
        let key = "\"\(table.primaryKey)\""
        let outbox = SyncEngine.outboxTable
        let recording = "(SELECT active FROM \(SyncEngine.mergeTable) WHERE id = 1) = 0"
        let row = "table_name = '\(name)' AND row_id = %@.\(key)"
        let unsent = "\(row) AND sent_at IS NULL"
        let version = "(SELECT version FROM \(SyncEngine.rowTable) WHERE \(row))"
        // The columns an update changed, each once in the list it joins.
        let changedNow = valueColumns.isEmpty ? "0" : valueColumns.map { "(OLD.\"\($0)\" IS NOT NEW.\"\($0)\")" }.joined(separator: " OR ")
        // Text parts joined in SQL: '' when there is none (a table of its
        // primary key alone).
        func concatenation(_ parts: [String]) -> String {
            parts.isEmpty ? "''" : parts.joined(separator: " || ")
        }
        let added = concatenation(valueColumns.map { column in
            "CASE WHEN OLD.\"\(column)\" IS NOT NEW.\"\(column)\" AND instr(',' || changed_columns, ',\(column),') = 0 THEN '\(column),' ELSE '' END"
        })
        let changedList = concatenation(valueColumns.map { column in
            "CASE WHEN OLD.\"\(column)\" IS NOT NEW.\"\(column)\" THEN '\(column),' ELSE '' END"
        })
        func on(_ reference: String, _ text: String) -> String {
            text.replacingOccurrences(of: "%@", with: reference)
        }
        // A deleted row's values, one row each, from a SELECT of them all.
        let lostColumns = valueColumns.isEmpty ? [""] : valueColumns
        let lostValues = "SELECT * FROM (" + lostColumns.map { column in
            "SELECT '\(name)', OLD.\(key), '\(column)', \(column.isEmpty ? "NULL" : "OLD.\"\(column)\"")"
        }.joined(separator: " UNION ALL ") + ")"
        // A UUID column's new value that is not a UUID in uppercase text.
        let uuidColumns = table.columns.filter { $0.type == .uuid }.map(\.name)
        let misstoredUUID = uuidColumns.map { column in
            "(NEW.\"\(column)\" IS NOT NULL AND (typeof(NEW.\"\(column)\") != 'text' OR length(NEW.\"\(column)\") != 36 "
                + "OR NEW.\"\(column)\" != upper(NEW.\"\(column)\")))"
        }.joined(separator: " OR ")
        let misstoredUUIDMessage = "a UUID of the synced table \(name) must be stored as uppercase text: in a record, "
            + "static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy { .uppercaseString }; "
            + "in SQL, uuidString"
        let markDirty = SyncEngine.markDigestDirty(table: "'\(name)'", rowID: "%@.\(key)")
        return [
            "DROP TRIGGER IF EXISTS sync_\(name)_insert",
            "DROP TRIGGER IF EXISTS sync_\(name)_update",
            "DROP TRIGGER IF EXISTS sync_\(name)_delete",
            "DROP TRIGGER IF EXISTS sync_\(name)_key",
            "DROP TRIGGER IF EXISTS sync_\(name)_merged_delete",
            "DROP TRIGGER IF EXISTS sync_\(name)_uuid_insert",
            "DROP TRIGGER IF EXISTS sync_\(name)_uuid_update",
            "DROP TRIGGER IF EXISTS sync_\(name)_digest_insert",
            "DROP TRIGGER IF EXISTS sync_\(name)_digest_update",
            "DROP TRIGGER IF EXISTS sync_\(name)_digest_delete",
            """
            CREATE TRIGGER sync_\(name)_insert AFTER INSERT ON "\(name)" WHEN \(recording) BEGIN
                UPDATE \(outbox) SET operation = 'upsert', changed_columns = \(allColumns) WHERE \(on("NEW", unsent));
                \(insertEntry)
                SELECT randomblob(16), '\(name)', NEW.\(key), 'upsert', \(allColumns), \(on("NEW", version)), \(now)
                WHERE NOT EXISTS (SELECT 1 FROM \(outbox) WHERE \(on("NEW", unsent)));
            END
            """,
            """
            CREATE TRIGGER sync_\(name)_update AFTER UPDATE ON "\(name)" WHEN \(recording) AND (\(changedNow)) BEGIN
                UPDATE \(outbox) SET changed_columns = changed_columns || \(added) WHERE \(on("NEW", unsent));
                \(insertEntry)
                SELECT randomblob(16), '\(name)', NEW.\(key), 'upsert', \(changedList), \(on("NEW", version)), \(now)
                WHERE NOT EXISTS (SELECT 1 FROM \(outbox) WHERE \(on("NEW", unsent)));
            END
            """,
            """
            CREATE TRIGGER sync_\(name)_delete AFTER DELETE ON "\(name)" WHEN \(recording) BEGIN
                DELETE FROM \(outbox) WHERE \(on("OLD", unsent));
                \(insertEntry)
                SELECT randomblob(16), '\(name)', OLD.\(key), 'delete', '', \(on("OLD", version)), \(now)
                WHERE \(on("OLD", version)) IS NOT NULL OR EXISTS (SELECT 1 FROM \(outbox) WHERE \(on("OLD", row)));
            END
            """,
            """
            CREATE TRIGGER sync_\(name)_merged_delete AFTER DELETE ON "\(name)" WHEN NOT \(recording) BEGIN
                DELETE FROM \(SyncEngine.rowTable) WHERE \(on("OLD", row));
                INSERT INTO \(SyncEngine.lostTable) (table_name, row_id, column_name, value)
                \(lostValues)
                WHERE EXISTS (SELECT 1 FROM \(outbox) WHERE \(on("OLD", row)));
            END
            """,
            """
            CREATE TRIGGER sync_\(name)_uuid_insert BEFORE INSERT ON "\(name)" WHEN \(misstoredUUID) BEGIN
                SELECT RAISE(ABORT, '\(misstoredUUIDMessage)');
            END
            """,
            """
            CREATE TRIGGER sync_\(name)_uuid_update BEFORE UPDATE ON "\(name)" WHEN \(misstoredUUID) BEGIN
                SELECT RAISE(ABORT, '\(misstoredUUIDMessage)');
            END
            """,
            """
            CREATE TRIGGER sync_\(name)_digest_insert AFTER INSERT ON "\(name)" BEGIN
                \(on("NEW", markDirty))
            END
            """,
            """
            CREATE TRIGGER sync_\(name)_digest_update AFTER UPDATE ON "\(name)" WHEN \(changedNow) BEGIN
                \(on("NEW", markDirty))
            END
            """,
            """
            CREATE TRIGGER sync_\(name)_digest_delete AFTER DELETE ON "\(name)" BEGIN
                \(on("OLD", markDirty))
            END
            """,
            """
            CREATE TRIGGER sync_\(name)_key BEFORE UPDATE OF \(key) ON "\(name)" WHEN OLD.\(key) IS NOT NEW.\(key) BEGIN
                SELECT RAISE(ABORT, 'the primary key of a synced row cannot change: delete the row and insert another');
            END
            """,
        ]
    }
}
