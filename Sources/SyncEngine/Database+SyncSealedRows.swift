import CipherDB
import Foundation
import SyncSchema

/// What a device keeps of the sealed values of its end-to-end tables
/// (Docs/EndToEnd.md), beside the rows they opened to:
///
/// - `sync_sealed_row`: of each row, the sealed counter and writing change
///   of the latest sealed value it took, so that an older one served again
///   is refused (``SyncRowRefusal/replayed(table:id:)``);
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

    /// The counters of the latest sealed values of rows of `table` the
    /// device took, by id: one statement for a page's rows. With
    /// `includingStaged`, a value staged by the pull under way (an earlier
    /// page of a delta) counts as taken.
    public func syncSealedCounters(table: String, ids: [UUID], includingStaged: Bool = false) throws -> [UUID: SyncSealedCounter] {
        guard !ids.isEmpty else { return [:] }
        var sources: [(sql: String, arguments: [String])] = []
        if try tableExists(Self.sealedRowTable) {
            sources.append(("SELECT row_id, counter, change FROM \(Self.sealedRowTable) WHERE table_name = ? AND row_id IN", [table]))
        }
        let stage = "sync_stage_\(table)"
        if includingStaged, try tableExists(stage) {
            // Last, so that it replaces the merged counter of its row.
            sources.append(("""
                SELECT sync_row_id, sync_sealed_counter, sync_sealed_change FROM "\(stage)"
                WHERE sync_sealed_counter IS NOT NULL AND sync_row_id IN
                """, []))
        }
        var counters: [UUID: SyncSealedCounter] = [:]
        guard !sources.isEmpty else { return counters }
        // At most 999 values a statement in SQLite 3.15.
        for start in stride(from: 0, to: ids.count, by: 400) {
            let part = ids[start..<min(start + 400, ids.count)].map(\.uppercasedText)
            let list = "(\(part.map { _ in "?" }.joined(separator: ",")))"
            for source in sources {
                let rows = try Row.fetchCursor(self, sql: source.sql + " " + list, arguments: StatementArguments(source.arguments + part))
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
        try cachedStatement(sql: """
            INSERT OR REPLACE INTO \(Self.sealedRowTable) (table_name, row_id, counter, change)
            SELECT ?, ?, ?, ? WHERE NOT EXISTS (
                SELECT 1 FROM \(Self.sealedRowTable) WHERE table_name = ? AND row_id = ? AND counter > ?)
            """).execute(arguments: [table, id.uuidString, sealed.counter, sealed.change, table, id.uuidString, sealed.counter])
    }

    /// Forgets the counters of every row: a server of another history
    /// (restored from a backup) numbers its changes anew.
    public func forgetSyncSealedCounters() throws {
        guard try tableExists(Self.sealedRowTable) else { return }
        try execute(sql: "DELETE FROM \(Self.sealedRowTable)")
    }

    /// The statement that keeps the sealed counters of the rows of
    /// `stage` that meet `condition` (in which `stage` names the staging
    /// table): the merge's.
    func recordingSyncSealedCounters(of stage: SyncStageTable, where condition: String) throws -> Statement {
        try createSyncSealedTables()
        return try cachedStatement(sql: """
            INSERT OR REPLACE INTO \(Self.sealedRowTable) (table_name, row_id, counter, change)
            SELECT '\(stage.table.name)', stage.sync_row_id, stage.sync_sealed_counter, stage.sync_sealed_change
            FROM \(stage.quotedName) AS stage WHERE \(condition) AND stage.sync_sealed_counter IS NOT NULL
            """)
    }

    /// Stages a row of a pull that no key the device holds opens: the
    /// merge keeps it waiting (``keepSyncRowWaitingForKey(_:)``), and a dry
    /// run, which rolls its merge back, keeps nothing.
    public func stageSyncRowWaitingForKey(_ server: SyncServerRow) throws {
        try createSyncSealedTables()
        try cachedStatement(sql: """
            INSERT OR REPLACE INTO \(Self.stagedWaitingRowTable) (table_name, row_id, version, row) VALUES (?, ?, ?, ?)
            """).execute(arguments: [server.row.table, server.row.id.uuidString, server.version, SyncStoredJSON.text(server.row.json)])
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
        try createSyncSealedTables()
        try cachedStatement(sql: """
            INSERT OR REPLACE INTO \(Self.waitingRowTable) (table_name, row_id, version, row) VALUES (?, ?, ?, ?)
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

    /// The tables some of whose rows wait for their key.
    func tablesWithSyncRowsWaitingForKeys() throws -> Set<String> {
        guard try tableExists(Self.waitingRowTable) else { return [] }
        return Set(try String.fetchAll(self, sql: "SELECT DISTINCT table_name FROM \(Self.waitingRowTable)"))
    }

    /// After a merge of `stage`: forgets the waiting rows that the pull
    /// brought a later state of (merged, or deleted), and after a snapshot
    /// those it does not list at all.
    func forgetSyncRowsWaitingReplaced(_ stage: SyncStageTable, isSnapshot: Bool) throws {
        guard try tableExists(Self.waitingRowTable) else { return }
        try execute(sql: """
            DELETE FROM \(Self.waitingRowTable) WHERE table_name = ? AND (
                EXISTS (SELECT 1 FROM \(stage.quotedName) AS stage
                        WHERE stage.sync_row_id = \(Self.waitingRowTable).row_id AND stage.sync_tombstone <> \(SyncStageTable.kept))
                OR (? AND NOT EXISTS (SELECT 1 FROM \(stage.quotedName) AS stage WHERE stage.sync_row_id = \(Self.waitingRowTable).row_id)))
            """, arguments: [stage.table.name, isSnapshot])
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

    private func createSyncSealedTables() throws {
        guard try !tableExists(Self.stagedWaitingRowTable) else { return }
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
            CREATE TABLE IF NOT EXISTS \(Self.sealedRowTable) (
                table_name TEXT NOT NULL,
                row_id TEXT NOT NULL,
                counter INTEGER NOT NULL,
                change BLOB NOT NULL,
                PRIMARY KEY (table_name, row_id)) WITHOUT ROWID
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
