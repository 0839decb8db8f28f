import CipherDB
import Foundation
import SyncSchema

/// What a device keeps of the sealed values of its end-to-end tables
/// (Docs/EndToEnd.md), beside the rows they opened to:
///
/// - `sync_row`'s `sealed_counter` and `sealed_change`: of each synced
///   row, the sealed counter and writing change of the latest sealed value
///   it took, so that an older one served again is refused
///   (``SyncRowRefusal/replayed(table:id:)``); beside its version, which
///   the merge writes anyway;
/// - `sync_sealed_row`: the same, of the rows whose `sync_row` entry was
///   deleted since (deleted rows), kept by a trigger;
/// - `sync_kept_row`: the rows the device keeps as they were against the
///   server's later state, which it refused or cannot open yet, until a
///   pull brings a state it takes: their tables differ from the server's
///   digests by design, and are not compared meanwhile;
/// - `sync_waiting_row`: the rows the server sent sealed under a key the
///   device does not hold yet, and the rows that refer to them, as they
///   came, until the key comes or the server sends a later state; a
///   pull stages its own in `sync_stage_waiting` until its merge.
///
/// ```swift
/// let seen = try db.syncSealedCounters(table: "note", ids: page.map(\.row.id))
/// if let before = seen[id], !counter.mayFollow(before) { … }   // replayed
/// try db.recordSyncSealedCounter(SyncSealedCounter(counter: 42, change: mutationID), table: "note", id: id)
/// ```
extension Database {
    static let sealedRowTable = "sync_sealed_row"
    static let waitingRowTable = "sync_waiting_row"
    static let stagedWaitingRowTable = "sync_stage_waiting"
    static let keptRowTable = "sync_kept_row"
    /// The trigger that keeps a row's counter once its `sync_row` entry is
    /// deleted: made with `sync_row`'s sealed columns.
    static let keepsSealedCounterTrigger = "sync_row_keeps_sealed_counter"

    /// The counters of the latest sealed values of rows of `table` the
    /// device took, by id: one statement for a page's rows. With
    /// `includingStaged`, a value staged by the pull under way (an earlier
    /// page of a delta) counts as taken.
    public func syncSealedCounters(table: String, ids: [UUID], includingStaged: Bool = false) throws -> [UUID: SyncSealedCounter] {
        guard !ids.isEmpty else { return [:] }
        // Each source replaces the counters of the one before: a table,
        // which of its rows hold counters, and the column of their ids.
        var sources: [(table: String, holding: String, id: String, columns: String)] = []
        let quotedTable = "'\(table.replacingOccurrences(of: "'", with: "''"))'"
        // Before its sealed columns, `sync_sealed_row` held every row's.
        if try tableExists(Self.sealedRowTable) {
            sources.append((Self.sealedRowTable, "table_name = \(quotedTable)", "row_id", "counter, change"))
        }
        if try triggerExists(Self.keepsSealedCounterTrigger) {
            sources.append((SyncEngine.rowTable, "table_name = \(quotedTable) AND sealed_counter IS NOT NULL", "row_id",
                            "sealed_counter, sealed_change"))
        }
        let stage = "sync_stage_\(table)"
        if includingStaged, try tableExists(stage) {
            sources.append(("\"\(stage)\"", "sync_sealed_counter IS NOT NULL", "sync_row_id", "sync_sealed_counter, sync_sealed_change"))
        }
        // A source without a counter of the table is not asked for each id
        // (the first pull of a new device).
        sources = try sources.filter { source in
            try Bool.fetchOne(self, sql: "SELECT EXISTS (SELECT 1 FROM \(source.table) WHERE \(source.holding))") == true
        }
        var counters: [UUID: SyncSealedCounter] = [:]
        guard !sources.isEmpty else { return counters }
        // At most 999 values a statement in SQLite 3.15.
        for start in stride(from: 0, to: ids.count, by: 400) {
            let part = ids[start..<min(start + 400, ids.count)].map(\.uppercasedText)
            let list = "(\(part.map { _ in "?" }.joined(separator: ",")))"
            for source in sources {
                let rows = try Row.fetchCursor(self, sql: """
                    SELECT \(source.id), \(source.columns) FROM \(source.table) WHERE \(source.holding) AND \(source.id) IN \(list)
                    """, arguments: StatementArguments(part))
                while let row = try rows.next() {
                    guard let id = UUID(parsing: row[0]) else { continue }
                    counters[id] = SyncSealedCounter(counter: row[1], change: row[2])
                }
            }
        }
        return counters
    }

    /// Records the counter of a sealed value the device took, or sealed and
    /// the server applied: a higher one than it had, or its first.
    public func recordSyncSealedCounter(_ sealed: SyncSealedCounter, table: String, id: UUID) throws {
        try createSyncSealedTables()
        let row: StatementArguments = [table, id.uuidString]
        try cachedStatement(sql: """
            UPDATE \(SyncEngine.rowTable) SET sealed_counter = ?, sealed_change = ?
            WHERE table_name = ? AND row_id = ? AND (sealed_counter IS NULL OR sealed_counter <= ?)
            """).execute(arguments: [sealed.counter, sealed.change] + row + [sealed.counter])
        // A row with no synced version keeps its counter as a deleted one.
        try cachedStatement(sql: """
            INSERT OR REPLACE INTO \(Self.sealedRowTable) (table_name, row_id, counter, change)
            SELECT ?, ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM \(SyncEngine.rowTable) WHERE table_name = ? AND row_id = ?)
            AND NOT EXISTS (SELECT 1 FROM \(Self.sealedRowTable) WHERE table_name = ? AND row_id = ? AND counter > ?)
            """).execute(arguments: row + [sealed.counter, sealed.change] + row + row + [sealed.counter])
    }

    /// Forgets the counters of every row: a server of another history
    /// (restored from a backup) numbers its changes anew.
    public func forgetSyncSealedCounters() throws {
        guard try triggerExists(Self.keepsSealedCounterTrigger) else { return }
        try execute(sql: """
            DELETE FROM \(Self.sealedRowTable);
            UPDATE \(SyncEngine.rowTable) SET sealed_counter = NULL, sealed_change = NULL WHERE sealed_counter IS NOT NULL;
            """)
    }

    /// The merge's part in `sync_row`'s sealed columns
    /// (``mergeStagedSyncChanges(schema:isSnapshot:wentBackTo:at:)``): the
    /// columns' names, their values from a staged row (`stage`) or else as
    /// they were (`synced`), and when a staged row of the same version as
    /// the device's still changes them; each beginning with a comma or
    /// `OR`, to follow the versions' own.
    func sealedCounterColumns() throws -> (names: String, values: String, changed: String) {
        try createSyncSealedTables()
        return (", sealed_counter, sealed_change",
                """
                , CASE WHEN stage.sync_sealed_counter IS NULL THEN synced.sealed_counter ELSE stage.sync_sealed_counter END\
                , CASE WHEN stage.sync_sealed_counter IS NULL THEN synced.sealed_change ELSE stage.sync_sealed_change END
                """,
                " OR (stage.sync_sealed_counter IS NOT NULL AND synced.sealed_counter IS NOT stage.sync_sealed_counter)")
    }

    /// Stages a row of a pull that no key the device holds opens: the
    /// merge keeps it waiting (``keepSyncRowWaitingForKey(_:)``), and a dry
    /// run, which rolls its merge back, keeps nothing.
    public func stageSyncRowWaitingForKey(_ server: SyncServerRow) throws {
        try keep(server, waitingIn: Self.stagedWaitingRowTable)
    }

    /// The merge's first step: the staged rows waiting for their key are
    /// kept waiting.
    func keepStagedSyncRowsWaitingForKeys() throws {
        guard try tableExists(Self.stagedWaitingRowTable) else { return }
        try execute(sql: """
            INSERT OR REPLACE INTO \(Self.waitingRowTable) (table_name, row_id, version, row)
            SELECT table_name, row_id, version, row FROM \(Self.stagedWaitingRowTable) ORDER BY rowid;
            DELETE FROM \(Self.stagedWaitingRowTable);
            """)
    }

    /// Empties the staged rows waiting for their key: the start of a pull.
    func emptyStagedSyncRowsWaitingForKeys() throws {
        guard try tableExists(Self.stagedWaitingRowTable) else { return }
        try execute(sql: "DELETE FROM \(Self.stagedWaitingRowTable)")
    }

    /// Keeps a row the server sent that no key the device holds opens, or
    /// that refers to such a row (its latest state: it replaces an earlier
    /// one), in the merge's transaction.
    public func keepSyncRowWaitingForKey(_ server: SyncServerRow) throws {
        try keep(server, waitingIn: Self.waitingRowTable)
    }

    /// Keeps a row as the server sent it in `table`, the waiting rows or
    /// those a pull staged, replacing an earlier state of it.
    private func keep(_ server: SyncServerRow, waitingIn table: String) throws {
        try createSyncSealedTables()
        try cachedStatement(sql: """
            INSERT OR REPLACE INTO \(table) (table_name, row_id, version, row) VALUES (?, ?, ?, ?)
            """).execute(arguments: [server.row.table, server.row.id.uuidString, server.version, SyncStoredJSON.text(server.row.json)])
    }

    /// The rows waiting for their key, as the server sent them (read by
    /// `schema`'s ``SyncSchema/receivedView``), in the order they came.
    public func syncRowsWaitingForKeys(schema: SyncSchema) throws -> [SyncServerRow] {
        guard try tableExists(Self.waitingRowTable) else { return [] }
        let received = schema.receivedView
        return try Row.fetchAll(self, sql: "SELECT table_name, version, row FROM \(Self.waitingRowTable) ORDER BY rowid").map { stored in
            guard let table = received.table(stored["table_name"]) else { throw SyncEngineError.undeclaredTable(stored["table_name"]) }
            let json = try SyncStoredJSON.row(from: stored["row"])
            return SyncServerRow(row: try table.row(from: json, carrying: .changed), version: stored["version"])
        }
    }

    /// The tables some of whose rows the device keeps as they were against
    /// the server's later state (``keepStagedSyncRowsKeptFromServer(schema:)``):
    /// their digests differ from the server's until a pull brings a state
    /// it takes.
    func tablesWithSyncRowsKeptFromServer() throws -> Set<String> {
        var tables: Set<String> = []
        for kept in [Self.waitingRowTable, Self.keptRowTable] where try tableExists(kept) {
            tables.formUnion(try String.fetchAll(self, sql: "SELECT DISTINCT table_name FROM \(kept)"))
        }
        return tables
    }

    /// The merge's step after the rows that wait are kept waiting: the
    /// staged rows the device keeps as they are (``SyncKeptRow``) are
    /// listed in `sync_kept_row`.
    func keepStagedSyncRowsKeptFromServer(schema: SyncSchema) throws {
        for table in schema.tables where table.isEndToEnd {
            let stage = SyncStageTable(table)
            try execute(sql: """
                INSERT OR REPLACE INTO \(Self.keptRowTable) (table_name, row_id)
                SELECT ?, sync_row_id FROM \(stage.quotedName) WHERE sync_tombstone = \(SyncStageTable.kept)
                """, arguments: [table.name])
        }
    }

    /// After a merge of `stage`: forgets the waiting and kept rows that the
    /// pull brought a later state of (merged, or deleted), and after a
    /// snapshot those it does not list at all.
    func forgetSyncRowsWaitingReplaced(_ stage: SyncStageTable, isSnapshot: Bool) throws {
        for kept in [Self.waitingRowTable, Self.keptRowTable] where try tableExists(kept) {
            try execute(sql: """
                DELETE FROM \(kept) WHERE table_name = ? AND (
                    EXISTS (SELECT 1 FROM \(stage.quotedName) AS stage
                            WHERE stage.sync_row_id = \(kept).row_id AND stage.sync_tombstone <> \(SyncStageTable.kept))
                    OR (? AND NOT EXISTS (SELECT 1 FROM \(stage.quotedName) AS stage WHERE stage.sync_row_id = \(kept).row_id)))
                """, arguments: [stage.table.name, isSnapshot])
        }
    }

    /// Before a merge: the staged rows that refer to a row the device
    /// keeps out (a sealed row it refused or cannot open yet, staged as
    /// kept or waiting from an earlier pull), and does not have, wait with
    /// it instead of breaking its reference: each is kept as it came
    /// (``keepSyncRowWaitingForKey(_:)``) and staged as kept. Parents first,
    /// until no row is left whose parent waits (a tree's rows).
    func holdSyncRowsOfHeldParents(schema: SyncSchema) throws {
        guard schema.tables.contains(where: \.isEndToEnd) else { return }
        try createSyncSealedTables()
        var held = true
        while held {
            held = false
            for table in schema.tablesInApplyOrder {
                let stage = SyncStageTable(table)
                for column in table.columns {
                    guard let reference = column.references, let parent = schema.table(reference.table) else { continue }
                    let parentStage = SyncStageTable(parent)
                    let rows = try Row.fetchAll(self, sql: """
                        SELECT stage.* FROM \(stage.quotedName) AS stage
                        WHERE stage.sync_tombstone = 0 AND stage."\(column.name)" IS NOT NULL
                        AND NOT EXISTS (SELECT 1 FROM "\(parent.name)" WHERE "\(parent.primaryKey)" = stage."\(column.name)")
                        AND NOT EXISTS (SELECT 1 FROM \(parentStage.quotedName) AS parent
                                        WHERE parent.sync_row_id = stage."\(column.name)" AND parent.sync_tombstone = 0)
                        AND (EXISTS (SELECT 1 FROM \(parentStage.quotedName) AS parent
                                     WHERE parent.sync_row_id = stage."\(column.name)" AND parent.sync_tombstone = \(SyncStageTable.kept))
                             OR EXISTS (SELECT 1 FROM \(Self.waitingRowTable) AS waiting
                                        WHERE waiting.table_name = ? AND waiting.row_id = stage."\(column.name)"))
                        """, arguments: [parent.name])
                    for row in rows {
                        try keepSyncRowWaitingForKey(SyncServerRow(row: try stage.serverRow(row), version: row["sync_version"]))
                        try execute(sql: "UPDATE \(stage.quotedName) SET sync_tombstone = \(SyncStageTable.kept) WHERE sync_seq = ?",
                                    arguments: [row["sync_seq"]])
                        held = true
                    }
                }
            }
        }
    }

    /// Whether the server has sent, or applied, a version of the row: a
    /// row without one was made on this device and never synced.
    public func isSyncedRow(table: String, id: UUID) throws -> Bool {
        try Bool.fetchOne(cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM \(SyncEngine.rowTable) WHERE table_name = ? AND row_id = ?)"),
                          arguments: [table, id.uuidString]) ?? false
    }

    /// Makes the tables and columns of sealed rows, once: `sync_row`'s
    /// sealed columns (the counters that databases of the first release of
    /// end-to-end tables kept in `sync_sealed_row` move there), and the
    /// trigger that keeps a deleted row's counter.
    func createSyncSealedTables() throws {
        guard try !triggerExists(Self.keepsSealedCounterTrigger) else { return }
        for table in [Self.waitingRowTable, Self.stagedWaitingRowTable] {
            try execute(sql: """
                CREATE TABLE IF NOT EXISTS \(table) (
                    table_name TEXT NOT NULL,
                    row_id TEXT NOT NULL,
                    version INTEGER NOT NULL,
                    row TEXT NOT NULL,
                    UNIQUE (table_name, row_id))
                """)
        }
        try execute(sql: """
            CREATE TABLE IF NOT EXISTS \(Self.keptRowTable) (
                table_name TEXT NOT NULL,
                row_id TEXT NOT NULL,
                PRIMARY KEY (table_name, row_id)) WITHOUT ROWID
            """)
        try execute(sql: """
            CREATE TABLE IF NOT EXISTS \(Self.sealedRowTable) (
                table_name TEXT NOT NULL,
                row_id TEXT NOT NULL,
                counter INTEGER NOT NULL,
                change BLOB NOT NULL,
                PRIMARY KEY (table_name, row_id)) WITHOUT ROWID
            """)
        let existing = Set(try columns(in: SyncEngine.rowTable).map { $0.name.lowercased() })
        for (column, type) in [("sealed_counter", "INTEGER"), ("sealed_change", "BLOB")] where !existing.contains(column) {
            try execute(sql: "ALTER TABLE \(SyncEngine.rowTable) ADD COLUMN \(column) \(type)")
        }
        let ofRow = "kept.table_name = \(SyncEngine.rowTable).table_name AND kept.row_id = \(SyncEngine.rowTable).row_id"
        try execute(sql: """
            UPDATE \(SyncEngine.rowTable)
            SET sealed_counter = (SELECT counter FROM \(Self.sealedRowTable) AS kept WHERE \(ofRow)),
                sealed_change = (SELECT change FROM \(Self.sealedRowTable) AS kept WHERE \(ofRow))
            WHERE EXISTS (SELECT 1 FROM \(Self.sealedRowTable) AS kept WHERE \(ofRow));
            DELETE FROM \(Self.sealedRowTable) WHERE EXISTS (
                SELECT 1 FROM \(SyncEngine.rowTable) AS synced
                WHERE synced.table_name = \(Self.sealedRowTable).table_name AND synced.row_id = \(Self.sealedRowTable).row_id);
            CREATE TRIGGER \(Self.keepsSealedCounterTrigger) AFTER DELETE ON \(SyncEngine.rowTable)
            WHEN OLD.sealed_counter IS NOT NULL BEGIN
                DELETE FROM \(Self.sealedRowTable) WHERE table_name = OLD.table_name AND row_id = OLD.row_id;
                INSERT INTO \(Self.sealedRowTable) (table_name, row_id, counter, change)
                VALUES (OLD.table_name, OLD.row_id, OLD.sealed_counter, OLD.sealed_change);
            END;
            """)
    }
}

/// The sealed counter of a row's sealed value and the change that wrote
/// it (``CipherDB/Database/syncSealedCounters(table:ids:)``).
public struct SyncSealedCounter: Sendable, Equatable {
    public var counter: Int64
    public var change: UUID

    public init(counter: Int64, change: UUID) {
        self.counter = counter
        self.change = change
    }

    /// Whether a sealed value of this counter and change may replace the
    /// one of `seen`: a later counter, or the same value again.
    public func mayFollow(_ seen: SyncSealedCounter) -> Bool {
        counter > seen.counter || self == seen
    }
}
