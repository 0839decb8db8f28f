import CipherDB
import Foundation
import SyncSchema

extension Database {
    /// After the server's history went back (it was restored from a
    /// backup), before the staged snapshot is merged: keeps every synced
    /// row that the server lost, that is, a row synced after
    /// `sharedCounter` (the last point both histories share) whose values
    /// differ from the snapshot's, and that waits for no local change.
    ///
    /// - A row that the server has as it was before the loss (a version up
    ///   to `sharedCounter`), or does not list, is queued in the outbox,
    ///   whole: the next push saves it on the server's version, or creates
    ///   it again. The merge then leaves it alone.
    /// - A row that the server changed or deleted since, or any row when
    ///   `sharedCounter` is unknown, is kept as a conflict with the
    ///   server's state (``SyncConflict``); the merge gives it that state,
    ///   as after a push.
    ///
    /// Returns how many rows were kept. The same rule as the players'
    /// (Docs/Sync.md), for every declared table.
    func keepSyncedRowsTheServerLost(schema: SyncSchema, sharedCounter: Int64?, at date: Date) throws -> Int {
        var kept = 0
        for table in schema.tablesInApplyOrder {
            let stage = SyncStageTable(table)
            let candidates = try Row.fetchAll(self, sql: """
                SELECT synced.row_id, stage.*
                FROM \(SyncEngine.rowTable) AS synced
                LEFT JOIN \(stage.quotedName) AS stage ON stage.sync_row_id = synced.row_id
                WHERE synced.table_name = ? AND synced.version > ?
                AND \(Self.hasNoLocalChange(table: "synced.table_name", rowID: "synced.row_id"))
                """, arguments: [table.name, sharedCounter ?? 0])
            for candidate in candidates {
                let storedID: DatabaseValue = candidate[0]
                guard let local = try currentValues(of: table, storedID) else { continue }
                let tombstone: Int? = candidate["sync_tombstone"]
                let stagedVersion: Int64? = candidate["sync_version"]
                let server = try tombstone == 0 ? stage.serverRow(candidate) : nil
                if let server, local.allSatisfy({ column, value in server.values[column].map { $0 == value } ?? true }) { continue }
                kept += 1
                if let sharedCounter, tombstone == nil || (server != nil && (stagedVersion ?? .max) <= sharedCounter) {
                    let changedColumns = stage.valueColumns.map { "\($0)," }.joined()
                    try execute(sql: """
                        INSERT INTO \(SyncEngine.outboxTable)
                            (mutation_id, table_name, row_id, operation, changed_columns, base_version, created_at)
                        VALUES (randomblob(16), ?, ?, 'upsert', ?, ?, ?)
                        """, arguments: [table.name, storedID, changedColumns, server == nil ? nil : stagedVersion, date.timeIntervalSince1970])
                } else {
                    guard let id = UUID.fromDatabaseValue(storedID) else { throw SyncRowError.invalidID(table: table.name, storedID.description) }
                    try logConflict(table, id, storedID, local: local, server: server, version: stagedVersion,
                                    changedAt: date.timeIntervalSince1970, detectedAt: date)
                }
            }
        }
        return kept
    }
}
