import CipherDB
import Foundation
import SyncSchema

extension Database {
    /// Settles the conflicts of one row: keeps the server's state (the
    /// conflicts are dropped: the row already holds the server's values),
    /// or the local values of the latest conflict, written to the row as a
    /// local change on top of the server's version, which the next sync
    /// pushes. Returns false when the row has no conflict.
    ///
    /// Keeping a local delete deletes the row again (with what its
    /// references cascade to); keeping a local row that the server deleted
    /// brings it back, on top of the deletion's version. A row that refers
    /// to a row that is no longer there cannot come back: that throws
    /// ``SyncEngineError/referencedRowGone(table:id:parent:)`` and changes
    /// nothing.
    ///
    /// ```swift
    /// try dbQueue.write { db in
    ///     try db.resolveSyncConflicts(table: "note", rowID: id, keepLocal: true, schema: schema)
    /// }
    /// ```
    @discardableResult
    public func resolveSyncConflicts(table tableName: String, rowID: UUID, keepLocal: Bool, schema: SyncSchema) throws -> Bool {
        guard isInsideTransaction else { throw SyncEngineError.notInTransaction("settling a conflict") }
        guard let table = schema.table(tableName) else { throw SyncEngineError.undeclaredTable(tableName) }
        let storedID = SyncValue.uuid(rowID).databaseValue
        let ofRow: StatementArguments = [table.name, storedID]
        guard let latest = try SyncConflict.fetchOne(self, sql: """
            SELECT * FROM \(SyncEngine.conflictTable) WHERE table_name = ? AND row_id = ? ORDER BY id DESC LIMIT 1
            """, arguments: ofRow) else { return false }
        try execute(sql: "DELETE FROM \(SyncEngine.conflictTable) WHERE table_name = ? AND row_id = ?", arguments: ofRow)
        guard keepLocal else { return true }

        guard let local = latest.localValues else {
            try writeRowState(table, storedID, nil)
            return true
        }
        let exists = try currentValues(of: table, storedID, columns: []) != nil
        // A row that comes back needs every required column: what the
        // conflict kept of a row deleted on the server is all of it.
        let row = try table.row(from: SyncRowJSON(id: rowID.uuidString, values: local), carrying: exists ? .changed : .whole)
        if !exists {
            // Deleted on the server: back on top of the deletion's version,
            // provided that every row it refers to is there.
            for column in table.columns {
                guard let reference = column.references, let parent = schema.table(reference.table),
                      let value = row.values[column.name]?.databaseValue, !value.isNull else { continue }
                if try Row.fetchOne(self, sql: "SELECT 1 FROM \"\(parent.name)\" WHERE \"\(parent.primaryKey)\" = ?", arguments: [value]) == nil {
                    throw SyncEngineError.referencedRowGone(table: table.name, id: rowID, parent: parent.name)
                }
            }
            try setServerVersion(latest.serverVersion, ofRow)
        }
        // The triggers record what this writes: the next push sends it.
        try writeRowState(table, storedID, row)
        return true
    }
}
