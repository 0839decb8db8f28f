import CipherDB
import Foundation
import SyncSchema

extension Database {
    /// Records the server's answers to a pushed batch, in the caller's
    /// transaction:
    ///
    /// - an applied change leaves the outbox; the row takes the version
    ///   it got (`sync_row`), and the row's later changes are rebased on it;
    /// - a change in conflict, or refused (the user may not make it: a
    ///   server of signed identities), leaves the outbox with the row's
    ///   later changes; the row takes the server's state, the triggers silent
    ///   (the server's row stands, so that every device converges; a row
    ///   deleted on the server is deleted here, with what cascades from
    ///   it); the local values that differed from the server's are logged
    ///   (``SyncConflict``) with the server's row, unless none differed (a
    ///   refused change is logged even then, with its ``SyncConflict/refusal``); a
    ///   row deleted by that cascade that had unsent changes is logged too,
    ///   with its values (and its own refusal, when the server refused its
    ///   change in the batch), and its changes leave the outbox;
    /// - a row whose server state refers to a row this device deleted in
    ///   the same batch is deleted, the triggers silent: the server deleted
    ///   it with its parent, or the pull that follows brings both back.
    ///
    /// Answers to changes no longer in the outbox (recorded by another
    /// sync) are ignored.
    ///
    /// ```swift
    /// let counts = try dbQueue.write { db in try db.recordSyncPushResults(results, for: batch, schema: schema) }
    /// ```
    public func recordSyncPushResults(_ results: [SyncPushResult], for batch: [SyncPushChange], schema: SyncSchema,
                                      at date: Date = Date()) throws -> SyncPushCounts {
        guard isInsideTransaction else { throw SyncEngineError.notInTransaction("recording the server's answers") }
        // A row in conflict takes the server's state, which may refer to a
        // row that this device deleted in the same batch: checked at the
        // end, once every answer is in.
        try execute(sql: "PRAGMA defer_foreign_keys = ON")
        if results.contains(where: { $0.status == .refused }) { try SyncEngine.addMissingColumns(self) }
        var counts = SyncPushCounts()
        // The refused changes by row: a row that an earlier answer's
        // cascade takes off the device is logged with its own refusal.
        var refusals: [SyncRowReference: String] = [:]
        for result in results where result.status == .refused {
            guard let change = batch.first(where: { $0.mutationID == result.mutationID }) else { continue }
            refusals[SyncRowReference(table: change.row.table, id: change.row.id)] = result.refusal
        }
        func logLost() throws {
            let lost = try logLostChanges(schema, at: date, refusals: refusals)
            counts.conflicts += lost.count
            counts.refused += lost.filter { refusals[$0] != nil }.count
        }
        for result in results {
            guard let change = batch.first(where: { $0.mutationID == result.mutationID }) else { continue }
            // A UUID's database value is its 16 bytes, as the outbox
            // stores mutation ids.
            let mutation = result.mutationID
            guard let entry = try Row.fetchOne(self, sql: """
                SELECT table_name, row_id, created_at FROM \(SyncEngine.outboxTable) WHERE mutation_id = ?
                """, arguments: [mutation]) else { continue }
            guard let table = schema.table(entry["table_name"]) else { throw SyncEngineError.undeclaredTable(entry["table_name"]) }
            let storedID: DatabaseValue = entry["row_id"]
            let ofRow: StatementArguments = [table.name, storedID]
            switch result.status {
            case .applied:
                try execute(sql: "DELETE FROM \(SyncEngine.outboxTable) WHERE mutation_id = ?", arguments: [mutation])
                try execute(sql: "UPDATE \(SyncEngine.outboxTable) SET base_version = ? WHERE table_name = ? AND row_id = ?",
                            arguments: [result.version] + ofRow)
                try setServerVersion(change.operation == .upsert ? result.version : nil, ofRow)
                counts.applied += 1
            case .conflict, .refused:
                let local = try currentValues(of: table, storedID)
                try execute(sql: "DELETE FROM \(SyncEngine.outboxTable) WHERE table_name = ? AND row_id = ?", arguments: ofRow)
                // Against a row deleted on the server, the whole local row
                // is kept: settling the conflict for it brings it back.
                let touched = change.operation == .delete || result.serverRow == nil
                    ? table.columns.map(\.name) : Array(change.row.values.keys)
                let differing = local.map { local in
                    local.filter { column, value in touched.contains(column) && result.serverRow?.values[column] != value }
                }
                // A refused change is always kept: the user sees what the
                // server would not take, even when it changed nothing.
                if result.status == .conflict, (local == nil) == (result.serverRow == nil), differing?.isEmpty ?? true {
                    counts.converged += 1
                } else {
                    try logConflict(table, change.row.id, storedID, local: differing, server: result.serverRow, version: result.version,
                                    changedAt: entry["created_at"], detectedAt: date, refusal: result.refusal)
                    counts.conflicts += 1
                    if result.status == .refused { counts.refused += 1 }
                }
                try mergingSyncChanges { try writeRowState(table, storedID, result.serverRow) }
                try setServerVersion(result.serverRow == nil ? nil : result.version, ofRow)
                try logLost()
            }
        }
        try deleteSyncedRowsWithoutParent(schema)
        try logLost()
        return counts
    }
}
