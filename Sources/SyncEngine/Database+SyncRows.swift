import CipherDB
import Foundation
import SyncSchema

/// What the recording of the server's answers and the merge of its rows
/// both do to the local rows, written once.
extension Database {
    /// Logs as conflicts the unsent changes of the rows that a merge
    /// deleted (a child of a row the server deleted, by cascade), whose
    /// values the triggers kept in `sync_lost`, and takes them out of the
    /// outbox; returns those rows. A row whose change the server refused
    /// in the batch being recorded (`refusals`, by row) is logged with that
    /// refusal: its answer finds it gone from the outbox.
    func logLostChanges(_ schema: SyncSchema, at date: Date, refusals: [SyncRowReference: String] = [:]) throws -> [SyncRowReference] {
        let lost = try Row.fetchAll(self, sql: "SELECT table_name, row_id, column_name, value FROM \(SyncEngine.lostTable) ORDER BY rowid")
        var rows: [(table: String, id: DatabaseValue, values: [(String, DatabaseValue)])] = []
        var logged: [SyncRowReference] = []
        for value in lost {
            let table: String = value["table_name"], id: DatabaseValue = value["row_id"]
            if rows.last?.table != table || rows.last?.id != id { rows.append((table, id, [])) }
            rows[rows.count - 1].values.append((value["column_name"], value["value"]))
        }
        for row in rows {
            guard let table = schema.table(row.table) else { throw SyncEngineError.undeclaredTable(row.table) }
            var values: [String: SyncValue] = [:]
            for (name, value) in row.values {
                guard let column = table.column(name) else { continue }
                values[name] = SyncValue(value, for: column.type)
            }
            let ofRow: StatementArguments = [table.name, row.id]
            let changedAt = try Double.fetchOne(self, sql: """
                SELECT min(created_at) FROM \(SyncEngine.outboxTable) WHERE table_name = ? AND row_id = ?
                """, arguments: ofRow) ?? date.timeIntervalSince1970
            try execute(sql: "DELETE FROM \(SyncEngine.outboxTable) WHERE table_name = ? AND row_id = ?", arguments: ofRow)
            guard let id = UUID.fromDatabaseValue(row.id) else { throw SyncRowError.invalidID(table: table.name, row.id.description) }
            let reference = SyncRowReference(table: table.name, id: id)
            try logConflict(table, id, row.id, local: values, server: nil, version: nil, changedAt: changedAt, detectedAt: date,
                            refusal: refusals[reference])
            logged.append(reference)
        }
        try execute(sql: "DELETE FROM \(SyncEngine.lostTable)")
        return logged
    }

    /// The row's version on the server, or none (a row the server deleted).
    func setServerVersion(_ version: Int64?, _ ofRow: StatementArguments) throws {
        // Once per row of a merge: the statements are compiled once.
        if let version {
            // An update keeps the hash the row's digest counted.
            try cachedStatement(sql: "UPDATE \(SyncEngine.rowTable) SET version = ? WHERE table_name = ? AND row_id = ?")
                .execute(arguments: [version] + ofRow)
            if changesCount == 0 {
                try cachedStatement(sql: "INSERT INTO \(SyncEngine.rowTable) (table_name, row_id, version) VALUES (?, ?, ?)")
                    .execute(arguments: ofRow + [version])
            }
        } else {
            try cachedStatement(sql: "DELETE FROM \(SyncEngine.rowTable) WHERE table_name = ? AND row_id = ?").execute(arguments: ofRow)
        }
    }

    /// The values of a row's `columns` (by default every declared one but
    /// the primary key); nil when there is no such row.
    func currentValues(of table: SyncTable, _ storedID: DatabaseValue, columns: [SyncColumn]? = nil) throws -> [String: SyncValue]? {
        let columns = columns ?? table.valueColumns
        let selection = columns.isEmpty ? "1" : columns.map { "\"\($0.name)\"" }.joined(separator: ", ")
        guard let row = try Row.fetchOne(self, sql: "SELECT \(selection) FROM \"\(table.name)\" WHERE \"\(table.primaryKey)\" = ?",
                                         arguments: [storedID]) else { return nil }
        var values: [String: SyncValue] = [:]
        for (index, column) in columns.enumerated() { values[column.name] = SyncValue(row[index], for: column.type) }
        return values
    }

    /// What ``writeRowState(_:_:_:)`` did to the local row.
    enum RowStateWritten {
        case inserted, updated, deleted, unchanged
    }

    /// Makes the local row hold `state`: its values (those of the declared
    /// columns it carries; the others keep theirs), or no row. Only a row
    /// whose values differ is written. The server's state in a merge and
    /// after a conflict (the triggers silent), or a conflict's local
    /// values kept (the triggers recording them).
    @discardableResult
    func writeRowState(_ table: SyncTable, _ storedID: DatabaseValue, _ state: SyncRow?) throws -> RowStateWritten {
        let key = "\"\(table.primaryKey)\""
        // Once per row of a merge: each statement is compiled once (with
        // the table's triggers, which SQLite compiles into it), not per row.
        guard let state else {
            try cachedStatement(sql: "DELETE FROM \"\(table.name)\" WHERE \(key) = ?").execute(arguments: [storedID])
            return changesCount > 0 ? .deleted : .unchanged
        }
        let columns = table.columns.map(\.name).filter { state.values[$0] != nil }
        if !columns.isEmpty {
            // Only a row whose values differ is written: a row the device
            // pushed comes back unchanged.
            let values = columns.map { state.values[$0]!.databaseValue }
            try cachedStatement(sql: """
                UPDATE "\(table.name)" SET \(columns.map { "\"\($0)\" = ?" }.joined(separator: ", "))
                WHERE \(key) = ? AND (\(columns.map { "\"\($0)\" IS NOT ?" }.joined(separator: " OR ")))
                """).execute(arguments: StatementArguments(values + [storedID] + values))
            if changesCount > 0 { return .updated }
        }
        if try Row.fetchOne(cachedStatement(sql: "SELECT 1 FROM \"\(table.name)\" WHERE \(key) = ?"), arguments: [storedID]) != nil {
            return .unchanged
        }
        let inserted = [table.primaryKey] + columns
        try cachedStatement(sql: """
            INSERT INTO "\(table.name)" (\(inserted.map { "\"\($0)\"" }.joined(separator: ", ")))
            VALUES (\(inserted.map { _ in "?" }.joined(separator: ", ")))
            """).execute(arguments: StatementArguments([SyncValue.uuid(state.id).databaseValue] + columns.map { state.values[$0]!.databaseValue }))
        return .inserted
    }

    /// Deletes, with the triggers silent, the rows of declared tables that
    /// refer to a row that is gone: a row in conflict that took the
    /// server's state while this device deleted its parent in the same
    /// batch. The server deleted it with that parent (a cascade), or the
    /// parent's delete is itself in conflict and the pull that follows
    /// brings both back. Any other broken reference throws
    /// ``SyncEngineError/foreignKeyViolation(table:id:parent:)``.
    func deleteSyncedRowsWithoutParent(_ schema: SyncSchema) throws {
        while let violation = try Row.fetchOne(self, sql: "PRAGMA foreign_key_check") {
            let table: String = violation[0]
            let rowid: Int64? = violation[1]
            let parent: String = violation[2]
            guard schema.table(table) != nil, schema.table(parent) != nil, let rowid else {
                throw SyncEngineError.foreignKeyViolation(table: table, id: rowid.map(String.init), parent: parent)
            }
            try mergingSyncChanges {
                try execute(sql: "DELETE FROM \"\(table)\" WHERE rowid = ?", arguments: [rowid])
            }
        }
    }

    func logConflict(_ table: SyncTable, _ id: UUID, _ storedID: DatabaseValue, local: [String: SyncValue]?, server: SyncRow?,
                             version: Int64?, changedAt: Double, detectedAt: Date, refusal: String? = nil) throws {
        func json(_ values: [String: SyncValue]?) throws -> String? {
            guard let values else { return nil }
            // JSON has no text for an infinite real, which only a write
            // around the declaration stores: refused as its column refuses it.
            for case (let name, .real(let real)) in values where !real.isFinite {
                guard let column = table.column(name) else { continue }
                do {
                    _ = try column.validated(.real(real))
                } catch {
                    throw SyncEngineError.rowBreaksDeclaration(table: table.name, id: id, .invalidValue(table: table.name, error))
                }
            }
            return SyncStoredJSON.text(SyncRowJSON(id: id.uuidString, values: values.mapValues(SyncJSONScalar.init)))
        }
        var values: [(any DatabaseValueConvertible)?] = [
            table.name, storedID, try json(local), try json(server?.values), version, changedAt, detectedAt.timeIntervalSince1970,
        ]
        // A database made before refusals has no refusal column until one
        // is recorded (SyncEngine.addMissingColumns).
        let refusalColumn = refusal == nil ? "" : ", refusal"
        if let refusal { values.append(refusal) }
        try execute(sql: """
            INSERT INTO \(SyncEngine.conflictTable)
                (table_name, row_id, local_values, server_values, server_version, changed_at, detected_at\(refusalColumn))
            VALUES (?, ?, ?, ?, ?, ?, ?\(refusal == nil ? "" : ", ?"))
            """, arguments: StatementArguments(values))
    }
}
