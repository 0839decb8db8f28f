import CipherDB
import Foundation
import SyncSchema

extension Database {
    /// Stages a page of a pull: the server's rows and tombstones, kept
    /// until ``mergeStagedSyncChanges(schema:isSnapshot:at:)`` merges every
    /// page in one transaction; a row's last state in the pages wins. In
    /// the caller's transaction.
    public func stageSyncPage(rows: [SyncServerRow], tombstones: [SyncTombstone]) throws {
        guard isInsideTransaction else { throw SyncEngineError.notInTransaction("staging a page of the server's rows") }
        let insert = try cachedStatement(sql: """
            INSERT INTO \(SyncEngine.stageTable) (kind, table_name, row_id, version, row_values) VALUES (?, ?, ?, ?, ?)
            """)
        // A row staged again (changed, or deleted, in a later page) keeps
        // its last state only.
        let forget = try cachedStatement(sql: "DELETE FROM \(SyncEngine.stageTable) WHERE table_name = ? AND row_id = ?")
        for server in rows {
            let values = try SyncStoredJSON.text(server.row.json)
            try forget.execute(arguments: [server.row.table, server.row.id.uuidString])
            try insert.execute(arguments: ["row", server.row.table, server.row.id.uuidString, server.version, values])
        }
        for tombstone in tombstones {
            try forget.execute(arguments: [tombstone.table, tombstone.id.uuidString])
            try insert.execute(arguments: ["tombstone", tombstone.table, tombstone.id.uuidString, tombstone.version, nil])
        }
    }

    /// Merges every staged page into the declared tables, in the caller's
    /// transaction, with the triggers silent (Docs/SyncEngine.md):
    ///
    /// - each table in apply order (parents first), its rows inserted or
    ///   updated; then each table in the reverse order, its tombstones
    ///   deleted, and after a snapshot the synced rows it does not list;
    /// - a row with unsent changes is left alone: its push settles it
    ///   against the server;
    /// - a row deleted by cascade with unsent changes of its own is logged
    ///   as a conflict, and its changes leave the outbox;
    /// - a column the declaration does not have (a server of a later
    ///   declaration) is not stored: this app cannot; the server keeps it;
    /// - foreign keys are checked at the end: a violation throws
    ///   ``SyncEngineError/foreignKeyViolation(table:id:parent:)`` (the
    ///   caller's transaction then rolls back, the staging kept);
    /// - after the server's history went back (`wentBackTo`: the last
    ///   counter both histories share, nil when unknown), the synced rows
    ///   it lost are kept first: queued to be pushed again, or logged as
    ///   conflicts (``SyncMergeCounts/requeued``).
    ///
    /// The staging is emptied.
    public func mergeStagedSyncChanges(schema: SyncSchema, isSnapshot: Bool, wentBackTo sharedCounter: Int64?? = nil,
                                       at date: Date = Date()) throws -> SyncMergeCounts {
        guard isInsideTransaction else { throw SyncEngineError.notInTransaction("a merge of the server's changes") }
        // Checked once every row is in: a tree's rows (a table that
        // references itself) arrive in any order.
        try execute(sql: "PRAGMA defer_foreign_keys = ON")
        var counts = SyncMergeCounts()
        if case .some(let sharedCounter) = sharedCounter {
            counts.requeued = try keepSyncedRowsTheServerLost(schema: schema, sharedCounter: sharedCounter, at: date)
        }
        try mergingSyncChanges {
            for table in schema.tablesInApplyOrder {
                try mergeStagedRows(of: table, &counts)
            }
            for table in schema.tablesInApplyOrder.reversed() {
                try deleteStagedTombstones(of: table, &counts)
                if isSnapshot { try deleteUnlistedRows(of: table, &counts) }
            }
        }
        counts.conflicts += try logLostChanges(schema, at: date)
        if let violation = try Row.fetchOne(self, sql: "PRAGMA foreign_key_check") {
            let table: String = violation[0]
            let rowid: Int64? = violation[1]
            let parent: String = violation[2]
            var id: String?
            if let declared = schema.table(table), let rowid {
                id = try String.fetchOne(self, sql: "SELECT \"\(declared.primaryKey)\" FROM \"\(table)\" WHERE rowid = ?", arguments: [rowid])
            }
            throw SyncEngineError.foreignKeyViolation(table: table, id: id, parent: parent)
        }
        try execute(sql: "DELETE FROM \(SyncEngine.stageTable)")
        return counts
    }

    /// The condition that a staged row (`stage`) must meet to be merged:
    /// no change of it waits in the outbox.
    private static let hasNoLocalChange = """
        NOT EXISTS (SELECT 1 FROM \(SyncEngine.outboxTable) AS outbox
                    WHERE outbox.table_name = stage.table_name AND outbox.row_id = stage.row_id)
        """

    private func mergeStagedRows(of table: SyncTable, _ counts: inout SyncMergeCounts) throws {
        counts.leftAlone += try Int.fetchOne(self, sql: """
            SELECT count(*) FROM \(SyncEngine.stageTable) AS stage WHERE table_name = ? AND NOT (\(Self.hasNoLocalChange))
            """, arguments: [table.name]) ?? 0
        let staged = try Row.fetchCursor(self, sql: """
            SELECT row_id, version, row_values FROM \(SyncEngine.stageTable) AS stage
            WHERE table_name = ? AND kind = 'row' AND \(Self.hasNoLocalChange) ORDER BY seq
            """, arguments: [table.name])
        while let stage = try staged.next() {
            var json = try SyncStoredJSON.decode(SyncRowJSON.self, from: stage[2])
            json.values = json.values.filter { table.column($0.key) != nil }
            let row = try table.row(from: json, carrying: .changed)
            let storedID = SyncValue.uuid(row.id).databaseValue
            switch try writeRowState(table, storedID, row) {
            case .inserted: counts.inserted += 1
            case .updated: counts.updated += 1
            case .unchanged: counts.unchanged += 1
            case .deleted: break
            }
            try setServerVersion(stage[1], [table.name, storedID])
        }
    }

    private func deleteStagedTombstones(of table: SyncTable, _ counts: inout SyncMergeCounts) throws {
        let tombstones = try DatabaseValue.fetchAll(self, sql: """
            SELECT row_id FROM \(SyncEngine.stageTable) AS stage
            WHERE table_name = ? AND kind = 'tombstone' AND \(Self.hasNoLocalChange) ORDER BY seq
            """, arguments: [table.name])
        for storedID in tombstones where try writeRowState(table, storedID, nil) == .deleted {
            counts.deleted += 1
        }
    }

    /// After a snapshot: the rows the server sent before (a version) that
    /// it no longer lists, and no local change waits for.
    private func deleteUnlistedRows(of table: SyncTable, _ counts: inout SyncMergeCounts) throws {
        let unlisted = try DatabaseValue.fetchAll(self, sql: """
            SELECT row_id FROM \(SyncEngine.rowTable) AS stage
            WHERE table_name = ? AND \(Self.hasNoLocalChange)
            AND NOT EXISTS (SELECT 1 FROM \(SyncEngine.stageTable) AS listed
                            WHERE listed.table_name = stage.table_name AND listed.row_id = stage.row_id AND listed.kind = 'row')
            """, arguments: [table.name])
        for storedID in unlisted where try writeRowState(table, storedID, nil) == .deleted {
            counts.deleted += 1
        }
    }
}
