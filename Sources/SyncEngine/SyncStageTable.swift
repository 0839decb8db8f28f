import CipherDB
import Foundation
import SyncSchema

/// Where a pull stages one declared table's rows and tombstones until the
/// merge: `sync_stage_NAME`, the table's columns (untyped: each value as
/// the table stores it) beside the engine's own, so that the merge is a
/// few statements of set-based SQL per table, not a JSON decoding per row.
///
/// The engine's columns are prefixed `sync_`, which no declared column may
/// be:
/// - `sync_seq`: the order in which the rows were staged;
/// - `sync_row_id`: the primary key, unique: a row staged again (changed,
///   or deleted, in a later page) keeps its last state only;
/// - `sync_version`: the version of the server's change;
/// - `sync_tombstone`: 1 for a deletion, whose columns are NULL; 2
///   (``kept``) for a row the server listed that the device keeps as it
///   is (a sealed row it refused, or cannot open yet), whose columns are
///   NULL: neither merged nor, after a snapshot, deleted;
/// - `sync_absent`: the declared columns the server's row does not carry
///   (`,title,body,`; a server of an earlier declaration), whose local
///   values the merge keeps; NULL when it carries them all;
/// - `sync_sealed_counter`, `sync_sealed_change`: of a row of an
///   end-to-end table, the sealed counter and writing change of the
///   sealed value it was opened from, which the merge keeps
///   (`sync_sealed_row`); NULL for other rows.
struct SyncStageTable {
    let table: SyncTable

    init(_ table: SyncTable) {
        self.table = table
    }

    /// `sync_tombstone` of a row the device keeps as it is.
    static let kept = 2

    var name: String { "sync_stage_\(table.name)" }

    /// The quoted name, for SQL.
    var quotedName: String { "\"\(name)\"" }

    /// The names of the table's value columns (all but the primary key).
    var valueColumns: [String] {
        table.valueColumns.map(\.name)
    }

    /// The columns of the staging table, in order.
    var columnNames: [String] {
        ["sync_seq", "sync_row_id", "sync_version", "sync_tombstone", "sync_absent", "sync_sealed_counter", "sync_sealed_change"]
            + valueColumns
    }

    /// Makes the staging table, replacing one of another shape (an earlier
    /// declaration's).
    func create(_ db: Database) throws {
        try db.execute(sql: "DROP TABLE IF EXISTS \(quotedName)")
        try db.execute(sql: """
            CREATE TABLE \(quotedName) (
                sync_seq INTEGER PRIMARY KEY,
                sync_row_id TEXT NOT NULL UNIQUE,
                sync_version INTEGER NOT NULL,
                sync_tombstone INTEGER NOT NULL,
                sync_absent TEXT,
                sync_sealed_counter INTEGER,
                sync_sealed_change BLOB\(valueColumns.map { ",\n    \"\($0)\"" }.joined()))
            """)
    }

    /// Whether the staging table exists with the columns of this
    /// declaration.
    func exists(_ db: Database) throws -> Bool {
        guard try db.tableExists(name) else { return false }
        return try db.columns(in: name).map(\.name) == columnNames
    }

    /// The statements that stage a page's rows and tombstones into this
    /// table, prepared once per page: each replaces what was staged for
    /// its row (`replacing`), or else leaves it (then `db.changesCount`
    /// is 0).
    func writer(_ db: Database, replacing: Bool) throws -> Writer {
        let conflict = replacing ? "REPLACE" : "IGNORE"
        return Writer(
            valueColumns: valueColumns,
            row: try db.makeStatement(sql: """
                INSERT OR \(conflict) INTO \(quotedName)
                    (sync_row_id, sync_version, sync_tombstone, sync_absent, sync_sealed_counter, sync_sealed_change\(
                        valueColumns.map { ", \"\($0)\"" }.joined()))
                VALUES (?, ?, 0, ?, ?, ?\(String(repeating: ", ?", count: valueColumns.count)))
                """),
            tombstone: try db.makeStatement(sql: """
                INSERT OR \(conflict) INTO \(quotedName) (sync_row_id, sync_version, sync_tombstone) VALUES (?, ?, ?)
                """),
            keptUnlessStaged: try db.makeStatement(sql: """
                INSERT OR IGNORE INTO \(quotedName) (sync_row_id, sync_version, sync_tombstone) VALUES (?, ?, \(Self.kept))
                """))
    }

    /// Stages a page's rows and tombstones of one table
    /// (``writer(_:replacing:)``).
    struct Writer {
        let valueColumns: [String]
        let row: Statement
        let tombstone: Statement
        /// A refused row, which leaves what an earlier page staged.
        let keptUnlessStaged: Statement

        /// Stages a server's row: the columns it does not carry are listed
        /// in `sync_absent`; `sealed`, the counter of the sealed value it
        /// was opened from.
        func stage(_ server: SyncServerRow, sealed: SyncSealedCounter? = nil) throws {
            var arguments: [(any DatabaseValueConvertible)?] = [server.row.id.uppercasedText, server.version, nil, sealed?.counter,
                                                               sealed?.change]
            arguments.reserveCapacity(5 + valueColumns.count)
            var absent = ""
            for column in valueColumns {
                if let value = server.row.values[column] {
                    arguments.append(value.databaseValue)
                } else {
                    absent += ",\(column)"
                    arguments.append(nil)
                }
            }
            if !absent.isEmpty { arguments[2] = absent + "," }
            try row.execute(arguments: StatementArguments(arguments))
        }

        /// Stages a server's deletion.
        func stage(_ tombstone: SyncTombstone) throws {
            try self.tombstone.execute(arguments: [tombstone.id.uuidString, tombstone.version, 1])
        }

        /// Stages a row the server listed that the device keeps as it is:
        /// one that waits for its key replaces what an earlier page staged
        /// for it; a refused one leaves it (``SyncKeptRow``).
        func keep(_ row: SyncKeptRow) throws {
            if row.waitsForKey {
                try tombstone.execute(arguments: [row.id.uuidString, row.version, SyncStageTable.kept])
            } else {
                try keptUnlessStaged.execute(arguments: [row.id.uuidString, row.version])
            }
        }
    }

    /// The server's row that a staged row (`sync_row_id`, `sync_absent`
    /// and the value columns, by name) describes: the columns it carries.
    func serverRow(_ staged: Row) throws -> SyncRow {
        let id: String = staged["sync_row_id"]
        let absent: String? = staged["sync_absent"]
        var values: [String: SyncValue] = [:]
        for column in table.valueColumns {
            if let absent, absent.contains(",\(column.name),") { continue }
            values[column.name] = SyncValue(staged[column.name], for: column.type)
        }
        guard let uuid = UUID(parsing: id) else { throw SyncRowError.invalidID(table: table.name, id) }
        return try table.row(id: uuid, values: values, carrying: .changed)
    }
}
