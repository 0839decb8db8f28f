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
/// - `sync_tombstone`: 1 for a deletion, whose columns are NULL;
/// - `sync_absent`: the declared columns the server's row does not carry
///   (`,title,body,`; a server of an earlier declaration), whose local
///   values the merge keeps; NULL when it carries them all.
struct SyncStageTable {
    let table: SyncTable

    init(_ table: SyncTable) {
        self.table = table
    }

    var name: String { "sync_stage_\(table.name)" }

    /// The quoted name, for SQL.
    var quotedName: String { "\"\(name)\"" }

    /// The names of the table's value columns (all but the primary key).
    var valueColumns: [String] {
        table.valueColumns.map(\.name)
    }

    /// The columns of the staging table, in order.
    var columnNames: [String] {
        ["sync_seq", "sync_row_id", "sync_version", "sync_tombstone", "sync_absent"] + valueColumns
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
                sync_absent TEXT\(valueColumns.map { ",\n    \"\($0)\"" }.joined()))
            """)
    }

    /// Whether the staging table exists with the columns of this
    /// declaration.
    func exists(_ db: Database) throws -> Bool {
        guard try db.tableExists(name) else { return false }
        return try db.columns(in: name).map(\.name) == columnNames
    }

    /// Stages a server's row, replacing what was staged for it, or else
    /// leaving it (then `db.changesCount` is 0).
    func stage(_ server: SyncServerRow, _ db: Database, replacing: Bool) throws {
        let absent = valueColumns.filter { server.row.values[$0] == nil }
        let values: [DatabaseValue] = valueColumns.map { server.row.values[$0]?.databaseValue ?? .null }
        try db.cachedStatement(sql: """
            INSERT OR \(replacing ? "REPLACE" : "IGNORE") INTO \(quotedName)
                (sync_row_id, sync_version, sync_tombstone, sync_absent\(valueColumns.map { ", \"\($0)\"" }.joined()))
            VALUES (?, ?, 0, ?\(String(repeating: ", ?", count: valueColumns.count)))
            """).execute(arguments: StatementArguments([
                server.row.id.uuidString.databaseValue, server.version.databaseValue,
                absent.isEmpty ? .null : ("," + absent.map { "\($0)," }.joined()).databaseValue,
            ] + values))
    }

    /// Stages a server's deletion, replacing what was staged for the row,
    /// or else leaving it (then `db.changesCount` is 0).
    func stage(_ tombstone: SyncTombstone, _ db: Database, replacing: Bool) throws {
        try db.cachedStatement(sql: """
            INSERT OR \(replacing ? "REPLACE" : "IGNORE") INTO \(quotedName) (sync_row_id, sync_version, sync_tombstone) VALUES (?, ?, 1)
            """).execute(arguments: [tombstone.id.uuidString, tombstone.version])
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
