import CipherDB
import Foundation
import SyncSchema

extension Database {
    /// Makes the staging table of each declared table (``SyncStageTable``)
    /// that is missing or has another declaration's columns, and empties
    /// them all, and makes the digests of the synced rows ready: the start
    /// of a pull. In the caller's transaction.
    public func prepareSyncStaging(schema: SyncSchema) throws {
        guard isInsideTransaction else { throw SyncEngineError.notInTransaction("preparing the staging of a pull") }
        try prepareSyncDigests(schema: schema)
        try stageSyncDigests(nil)
        if schema.tables.contains(where: \.isEndToEnd) { try createSyncSealedTables() }
        try emptyStagedSyncRowsWaitingForKeys()
        // The one staging table of databases made before the engine staged
        // each table in columns of its own: empty between two pulls.
        try execute(sql: "DROP TABLE IF EXISTS sync_stage")
        for table in schema.tables {
            let stage = SyncStageTable(table)
            if try stage.exists(self) {
                try execute(sql: "DELETE FROM \(stage.quotedName)")
            } else {
                try stage.create(self)
            }
        }
    }

    /// Stages a page of a pull: the server's rows and tombstones, each in
    /// its table's staging table, kept until
    /// ``mergeStagedSyncChanges(schema:isSnapshot:wentBackTo:at:)`` merges
    /// every page in one transaction; a row's last state in the pages wins
    /// (the pages' versions only go up).
    /// In the caller's transaction, after ``prepareSyncStaging(schema:)``.
    ///
    /// `sealed`: of the rows of end-to-end tables, in the order of `rows`,
    /// the counter of the sealed value each was opened from, which the
    /// merge keeps with the row (``syncSealedCounters(table:ids:)``).
    ///
    /// `kept`: rows the server listed that the device keeps as they are
    /// (an end-to-end table's rows it refused, or cannot open yet): the
    /// merge leaves them, and a snapshot does not delete them.
    ///
    /// With `refusingRepeats` (the pages of a snapshot, before its
    /// catch-up delta), a row staged by an earlier page throws
    /// ``SyncSchema/SyncMessageError`` at the row's place among `rows` or
    /// `tombstones`: a snapshot lists each row once.
    public func stageSyncPage(rows: [SyncServerRow], sealed: [SyncSealedCounter?] = [], tombstones: [SyncTombstone],
                              kept: [SyncKeptRow] = [], schema: SyncSchema, refusingRepeats: Bool = false) throws {
        guard isInsideTransaction else { throw SyncEngineError.notInTransaction("staging a page of the server's rows") }
        var writers: [String: SyncStageTable.Writer] = [:]
        func writer(of name: String) throws -> SyncStageTable.Writer {
            if let writer = writers[name] { return writer }
            guard let table = schema.table(name) else { throw SyncEngineError.undeclaredTable(name) }
            let writer = try SyncStageTable(table).writer(self, replacing: !refusingRepeats)
            writers[name] = writer
            return writer
        }
        func checkNew(_ id: UUID, _ path: String) throws {
            guard refusingRepeats, changesCount == 0 else { return }
            throw SyncMessageError(path: path, "\(id.uuidString) appears on an earlier page of the snapshot")
        }
        for (index, server) in rows.enumerated() {
            try writer(of: server.row.table).stage(server, sealed: index < sealed.count ? sealed[index] : nil)
            try checkNew(server.row.id, "$.rows[\(index)].id")
        }
        for (index, tombstone) in tombstones.enumerated() {
            try writer(of: tombstone.table).stage(tombstone)
            try checkNew(tombstone.id, "$.tombstones[\(index)].id")
        }
        for row in kept {
            try writer(of: row.table).keep(row)
            try checkNew(row.id, "$.rows[\(row.index)].id")
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
    /// - a column the server's row does not carry (a server of an earlier
    ///   declaration) keeps its local value;
    /// - a row kept as the device has it (an end-to-end table's row it
    ///   refused or cannot open yet) is left as it is, and a row that
    ///   refers to such a row the device does not have waits with it
    ///   (``keepSyncRowWaitingForKey(_:)``);
    /// - foreign keys are checked at the end: a violation throws
    ///   ``SyncEngineError/foreignKeyViolation(table:id:parent:)`` (the
    ///   caller's transaction then rolls back, the staging kept);
    /// - after the server's history went back (`wentBackTo`: the last
    ///   counter both histories share, nil when unknown), the synced rows
    ///   it lost are kept first: queued to be pushed again, or logged as
    ///   conflicts (``SyncMergeCounts/requeued``).
    ///
    /// `removed`, if any, is told each row a tombstone or a snapshot
    /// deletes, before it is deleted (what cascades from it comes in its
    /// own table's turn: children are deleted first). The caller's
    /// transaction may still roll back.
    ///
    /// Each step is one statement per table over its staging table
    /// (``SyncStageTable``), whatever the number of rows. The staging is
    /// emptied. `progress`, if any, follows the rows' step: at the start,
    /// after each chunk of staged rows (``mergeChunk``), and at the end.
    public func mergeStagedSyncChanges(schema: SyncSchema, isSnapshot: Bool, wentBackTo sharedCounter: Int64?? = nil,
                                       at date: Date = Date(), progress: SyncMergeProgress? = nil,
                                       removed: ((SyncRowReference) -> Void)? = nil) throws -> SyncMergeCounts {
        guard isInsideTransaction else { throw SyncEngineError.notInTransaction("a merge of the server's changes") }
        var merged = 0
        var staged = 0
        if progress != nil {
            for table in schema.tables {
                staged += try Int.fetchOne(self, sql: "SELECT count(*) FROM \(SyncStageTable(table).quotedName)") ?? 0
            }
        }
        progress?(0, staged)
        // Checked once every row is in: a tree's rows (a table that
        // references itself) arrive in any order.
        try execute(sql: "PRAGMA defer_foreign_keys = ON")
        var counts = SyncMergeCounts()
        try keepStagedSyncRowsWaitingForKeys()
        try holdSyncRowsOfHeldParents(schema: schema)
        try keepStagedSyncRowsKeptFromServer(schema: schema)
        if case .some(let sharedCounter) = sharedCounter {
            counts.requeued = try keepSyncedRowsTheServerLost(schema: schema, sharedCounter: sharedCounter, at: date)
        }
        try mergingSyncChanges {
            for table in schema.tablesInApplyOrder {
                try mergeStagedRows(of: SyncStageTable(table), &counts, onChunk: progress.map { progress in
                    { chunk in
                        merged += chunk
                        progress(merged, staged)
                    }
                })
            }
            for table in schema.tablesInApplyOrder.reversed() {
                try deleteStagedTombstones(of: SyncStageTable(table), &counts, removed: removed)
                if isSnapshot { try deleteUnlistedRows(of: SyncStageTable(table), &counts, removed: removed) }
                try forgetSyncRowsWaitingReplaced(SyncStageTable(table), isSnapshot: isSnapshot)
            }
        }
        counts.conflicts += try logLostChanges(schema, at: date).count
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
        for table in schema.tables {
            try execute(sql: "DELETE FROM \(SyncStageTable(table).quotedName)")
        }
        progress?(staged, staged)
        return counts
    }

    /// The SQL condition that no change of a row waits in the outbox:
    /// what a staged row must meet to be merged, and a synced row to be
    /// deleted or kept by a merge. `table` and `rowID` are SQL expressions
    /// of the row's table name and id.
    static func hasNoLocalChange(table: String, rowID: String) -> String {
        """
        NOT EXISTS (SELECT 1 FROM \(SyncEngine.outboxTable) AS outbox
                    WHERE outbox.table_name = \(table) AND outbox.row_id = \(rowID))
        """
    }

    /// ``hasNoLocalChange(table:rowID:)`` of a row staged for `table`
    /// (`stage`).
    private static func hasNoLocalChange(_ table: SyncTable) -> String {
        hasNoLocalChange(table: "'\(table.name)'", rowID: "stage.sync_row_id")
    }

    /// How many staged rows one statement of the merge takes: SQLite keeps
    /// what a statement collects (the ids of an `IN`, its statement
    /// journal) in memory (SQLCipher's temporary store), so a merge of a
    /// million rows goes through chunks of these, and its memory stays flat.
    static let mergeChunk: Int64 = 2_000

    /// The ranges of `sync_seq` that split a staging table into chunks of
    /// at most ``mergeChunk`` rows, in staging order.
    private func stagedChunks(_ stage: SyncStageTable) throws -> [ClosedRange<Int64>] {
        guard let bounds = try Row.fetchOne(self, sql: "SELECT min(sync_seq), max(sync_seq) FROM \(stage.quotedName)"),
              let lower = bounds[0] as Int64?, let upper = bounds[1] as Int64? else { return [] }
        return stride(from: lower, through: upper, by: Int(Self.mergeChunk)).map { $0...min($0 + Self.mergeChunk - 1, upper) }
    }

    /// Inserts the staged rows that the device does not have, and updates
    /// those whose values differ in the columns that differ, a few
    /// statements per chunk of rows (one update per set of columns); the
    /// rows whose server lacks some columns, one at a time (rare: a server
    /// of an earlier declaration).
    /// `onChunk`, if any, gets the number of staged rows and tombstones of
    /// each chunk once it is merged.
    private func mergeStagedRows(of stage: SyncStageTable, _ counts: inout SyncMergeCounts, onChunk: ((Int) -> Void)?) throws {
        let table = stage.table
        let target = "\"\(table.name)\""
        let key = "\"\(table.primaryKey)\""
        let merged = "stage.sync_tombstone = 0 AND \(Self.hasNoLocalChange(table))"
        let chunk = "stage.sync_seq BETWEEN ? AND ?"
        let whole = "\(chunk) AND \(merged) AND stage.sync_absent IS NULL"
        counts.leftAlone += try Int.fetchOne(self, sql: """
            SELECT count(*) FROM \(stage.quotedName) AS stage WHERE NOT (\(Self.hasNoLocalChange(table)))
            """) ?? 0
        let mergedCount = try Int.fetchOne(self, sql: "SELECT count(*) FROM \(stage.quotedName) AS stage WHERE \(merged)") ?? 0
        var written = 0

        // Rows that lack columns: each through the one function that
        // writes a row's state.
        let partial = try Row.fetchCursor(self, sql: """
            SELECT * FROM \(stage.quotedName) AS stage WHERE \(merged) AND stage.sync_absent IS NOT NULL ORDER BY sync_seq
            """)
        while let staged = try partial.next() {
            let row = try stage.serverRow(staged)
            switch try writeRowState(table, SyncValue.uuid(row.id).databaseValue, row) {
            case .inserted: counts.inserted += 1; written += 1
            case .updated: counts.updated += 1; written += 1
            case .unchanged, .deleted: break
            }
        }

        let columns = stage.valueColumns.map { "\"\($0)\"" }
        // Which columns of a staged row differ from the device's row
        // (`local`): a text of one `1` or `0` per column. Only rows that
        // differ are written, and only their columns that differ, so that
        // a row the device pushed comes back unchanged, and an index or an
        // `UPDATE OF` trigger of a column the server did not change is
        // left alone, as an edit on the device leaves it.
        let changedColumns = columns.map { "CASE WHEN stage.\($0) IS NOT local.\($0) THEN '1' ELSE '0' END" }.joined(separator: " || ")
        let changes = columns.isEmpty ? nil : try cachedStatement(sql: """
            SELECT DISTINCT \(changedColumns) FROM \(stage.quotedName) AS stage
            CROSS JOIN \(target) AS local ON local.\(key) = stage.sync_row_id WHERE \(whole)
            """)
        /// Updates the rows of a chunk whose changed columns are `changed`.
        func update(_ changed: String, _ bounds: StatementArguments) throws {
            let set = zip(columns, changed).filter { $0.1 == "1" }.map { column, _ in
                "\(column) = (SELECT stage.\(column) FROM \(stage.quotedName) AS stage WHERE stage.sync_row_id = \(target).\(key))"
            }
            guard !set.isEmpty else { return }
            try cachedStatement(sql: """
                UPDATE \(target) SET \(set.joined(separator: ", "))
                WHERE \(key) IN (SELECT stage.sync_row_id FROM \(stage.quotedName) AS stage
                                 CROSS JOIN \(target) AS local ON local.\(key) = stage.sync_row_id
                                 WHERE \(whole) AND \(changedColumns) = ?)
                """).execute(arguments: bounds + [changed])
            counts.updated += changesCount
            written += changesCount
        }
        let insert = try cachedStatement(sql: """
            INSERT INTO \(target) (\(([key] + columns).joined(separator: ", ")))
            SELECT \((["stage.sync_row_id"] + columns.map { "stage.\($0)" }).joined(separator: ", "))
            FROM \(stage.quotedName) AS stage
            WHERE \(whole) AND NOT EXISTS (SELECT 1 FROM \(target) WHERE \(key) = stage.sync_row_id)
            ORDER BY stage.sync_seq
            """)
        // The server's versions: the base of the next local changes. A
        // version the device has is not written again; a replaced entry
        // keeps the hash its digest counted. Beside them, for an
        // end-to-end table, the counters of the sealed values the rows
        // were opened from (``syncSealedCounters(table:ids:includingStaged:)``).
        let sealed = try table.isEndToEnd ? sealedCounterColumns() : nil
        let versions = try cachedStatement(sql: """
            INSERT OR REPLACE INTO \(SyncEngine.rowTable) (table_name, row_id, version, hash\(sealed?.names ?? ""))
            SELECT '\(table.name)', stage.sync_row_id, stage.sync_version, synced.hash\(sealed?.values ?? "")
            FROM \(stage.quotedName) AS stage
            LEFT JOIN \(SyncEngine.rowTable) AS synced ON synced.table_name = '\(table.name)' AND synced.row_id = stage.sync_row_id
            WHERE \(chunk) AND \(merged) AND (synced.version IS NOT stage.sync_version\(sealed?.changed ?? ""))
            """)
        let chunkCount = try cachedStatement(sql: "SELECT count(*) FROM \(stage.quotedName) WHERE sync_seq BETWEEN ? AND ?")
        for range in try stagedChunks(stage) {
            let bounds: StatementArguments = [range.lowerBound, range.upperBound]
            if let changes {
                for changed in try String.fetchAll(changes, arguments: bounds) {
                    try update(changed, bounds)
                }
            }
            try insert.execute(arguments: bounds)
            counts.inserted += changesCount
            written += changesCount
            try versions.execute(arguments: bounds)
            if let onChunk { onChunk(try Int.fetchOne(chunkCount, arguments: bounds) ?? 0) }
        }
        counts.unchanged += mergedCount - written
    }

    private func deleteStagedTombstones(of stage: SyncStageTable, _ counts: inout SyncMergeCounts,
                                        removed: ((SyncRowReference) -> Void)?) throws {
        let deletable = """
            SELECT stage.sync_row_id FROM \(stage.quotedName) AS stage
            WHERE stage.sync_seq BETWEEN ? AND ? AND stage.sync_tombstone = 1 AND \(Self.hasNoLocalChange(stage.table))
            """
        let delete = try cachedStatement(sql: """
            DELETE FROM "\(stage.table.name)" WHERE "\(stage.table.primaryKey)" IN (\(deletable))
            """)
        let present = try removed.map { _ in
            try cachedStatement(sql: """
                SELECT "\(stage.table.primaryKey)" FROM "\(stage.table.name)" WHERE "\(stage.table.primaryKey)" IN (\(deletable))
                """)
        }
        for range in try stagedChunks(stage) {
            let bounds: StatementArguments = [range.lowerBound, range.upperBound]
            if let removed, let present {
                try tell(removed, stage.table, String.fetchCursor(present, arguments: bounds))
            }
            try delete.execute(arguments: bounds)
            counts.deleted += changesCount
        }
    }

    /// Tells `removed` each row of `ids` (a table's primary keys, UUIDs).
    private func tell(_ removed: (SyncRowReference) -> Void, _ table: SyncTable, _ ids: some Cursor<String>) throws {
        while let id = try ids.next() {
            guard let uuid = UUID(uuidString: id) else { throw SyncRowError.invalidID(table: table.name, id) }
            removed(SyncRowReference(table: table.name, id: uuid))
        }
    }

    /// After a snapshot: the rows the server sent before (a version) that
    /// it no longer lists, and no local change waits for; a chunk of ids
    /// at a time, in their order.
    private func deleteUnlistedRows(of stage: SyncStageTable, _ counts: inout SyncMergeCounts,
                                    removed: ((SyncRowReference) -> Void)?) throws {
        let unlisted = try cachedStatement(sql: """
            SELECT synced.row_id FROM \(SyncEngine.rowTable) AS synced
            WHERE synced.table_name = ? AND synced.row_id > ?
            AND \(Self.hasNoLocalChange(table: "synced.table_name", rowID: "synced.row_id"))
            AND NOT EXISTS (SELECT 1 FROM \(stage.quotedName) AS listed
                            WHERE listed.sync_row_id = synced.row_id AND listed.sync_tombstone <> 1)
            ORDER BY synced.row_id LIMIT \(Self.mergeChunk)
            """)
        var after = ""
        while true {
            let ids = try String.fetchAll(unlisted, arguments: [stage.table.name, after])
            guard let last = ids.last else { return }
            // At most 999 values a statement in SQLite 3.15.
            for part in stride(from: 0, to: ids.count, by: 500) {
                let values = Array(ids[part..<min(part + 500, ids.count)])
                let chosen = """
                    FROM "\(stage.table.name)" WHERE "\(stage.table.primaryKey)" IN (\(values.map { _ in "?" }.joined(separator: ", ")))
                    """
                if let removed {
                    try tell(removed, stage.table, String.fetchCursor(self, sql: "SELECT \"\(stage.table.primaryKey)\" \(chosen)",
                                                                      arguments: StatementArguments(values)))
                }
                try execute(sql: "DELETE \(chosen)", arguments: StatementArguments(values))
                counts.deleted += changesCount
            }
            after = last
        }
    }
}
