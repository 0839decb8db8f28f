import CipherDB
import Foundation
import SyncSchema

extension Database {
    /// The next changes to push, in push order, at most `maximumChanges`
    /// and at most one per row (a later change of a row waits for the
    /// answer to the earlier one, whose version it is based on).
    /// An entry sent before carries the values it was first sent with,
    /// whatever happened to its row since: its retry is the same request,
    /// which the server applies once. An entry never sent has its row's
    /// values read now, checked by the declaration, and frozen with it: it
    /// is marked sent at `date`, in the caller's transaction.
    ///
    /// The rows of `skipping` are left out, with their later changes: a
    /// push leaves there the changes it cannot send yet (a row of an
    /// end-to-end table whose key the device does not hold).
    ///
    /// Throws ``SyncSchema/SyncRowError`` for a row whose values the
    /// declaration refuses (nothing is marked sent then), and
    /// ``SyncEngineError`` for an entry whose table is not declared or
    /// whose row is gone.
    ///
    /// ```swift
    /// let batch = try dbQueue.write { db in try db.nextSyncPushBatch(for: schema) }
    /// ```
    public func nextSyncPushBatch(for schema: SyncSchema, maximumChanges: Int = 500, skipping: Set<SyncRowReference> = [],
                                  at date: Date = Date()) throws -> [SyncPushChange] {
        guard isInsideTransaction else { throw SyncEngineError.notInTransaction("taking a batch of the outbox") }
        // At most one change per row: a later change of a row waits for
        // the answer to the earlier one, whose version it is based on.
        var rows: [Row] = []
        var rowsInBatch = Set<[DatabaseValue]>()
        let cursor = try Row.fetchCursor(self, sql: """
            SELECT id, mutation_id, table_name, row_id, operation, changed_columns, base_version, created_at, sent_at, sent_values
            FROM \(SyncEngine.outboxTable) ORDER BY id
            """)
        while rows.count < maximumChanges, let row = try cursor.next() {
            if !skipping.isEmpty, let id = UUID.fromDatabaseValue(row["row_id"]),
               skipping.contains(SyncRowReference(table: row["table_name"], id: id)) {
                continue
            }
            if rowsInBatch.insert([row["table_name"], row["row_id"]]).inserted {
                rows.append(row.copy())
            }
        }
        var batch: [SyncPushChange] = []
        for row in rows {
            let entry = try SyncOutboxEntry(row: row)
            guard let table = schema.table(entry.table) else { throw SyncEngineError.undeclaredTable(entry.table) }
            let syncRow: SyncRow
            if let sent: String = row["sent_values"] {
                let json = try SyncStoredJSON.row(from: sent)
                syncRow = try table.row(from: json, carrying: .changed)
            } else {
                syncRow = try frozenRow(of: entry, in: table, storedID: row["row_id"])
                try execute(sql: "UPDATE \(SyncEngine.outboxTable) SET sent_at = ?, sent_values = ? WHERE id = ?",
                            arguments: [date.timeIntervalSince1970, SyncStoredJSON.text(syncRow.json), entry.id])
            }
            batch.append(SyncPushChange(entry: entry.id, change: SyncChange(
                mutationID: entry.mutationID, operation: entry.operation, row: syncRow, baseVersion: entry.baseVersion)))
        }
        return batch
    }

    /// The row of an entry never sent, as it is now: no values for a
    /// delete; for an upsert, the columns it touched in a table merged by
    /// column, or else all of them.
    private func frozenRow(of entry: SyncOutboxEntry, in table: SyncTable, storedID: DatabaseValue) throws -> SyncRow {
        if entry.operation == .delete {
            return try table.row(id: entry.rowID, values: [:], carrying: .changed)
        }
        let columns = table.conflicts == .mergeByColumn
            ? table.columns.filter { entry.changedColumns.contains($0.name) }
            : table.valueColumns
        guard let values = try currentValues(of: table, storedID, columns: columns) else {
            throw SyncEngineError.rowGone(table: table.name, id: entry.rowID)
        }
        do {
            return try table.row(id: entry.rowID, values: values, carrying: table.conflicts == .mergeByColumn ? .changed : .whole)
        } catch {
            throw SyncEngineError.rowBreaksDeclaration(table: table.name, id: entry.rowID, error)
        }
    }
}
