import CipherDB
import Foundation
import SyncSchema
import SyncServer

/// The reads and writes that ``ServerSyncDatabase`` carries out for the
/// rules: rows by key, children by reference, answers by mutation id.
extension ServerSyncDatabase {
    /// SQLite 3.15 takes at most 999 arguments in a statement.
    static let chunkSize = 500

    /// The tables the database holds rows of, live or deleted: one
    /// lookup in the key's index per table.
    static func storedTables(_ db: Database) throws -> [String] {
        var tables: [String] = []
        while let next = try String.fetchOne(db, sql: "SELECT MIN(table_name) FROM sync_server_row WHERE table_name > ?",
                                             arguments: [tables.last ?? ""]) {
            tables.append(next)
        }
        return tables
    }

    /// The counter, and the oldest version a delta can start after.
    static func counter(_ db: Database) throws -> SyncCounter {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT value, floor FROM sync_server_counter")) else {
            throw SyncStoreError.historyMissing
        }
        return SyncCounter(value: row[0], floor: row[1])
    }

    /// Whether `table` has a live row.
    func hasLiveRows(_ db: Database, in table: String) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM sync_server_row WHERE table_name = ? AND deleted_at IS NULL)",
                          arguments: [table]) ?? false
    }

    /// The rows of `keys` that exist, live or deleted.
    func rows(_ db: Database, _ keys: [SyncRowKey]) throws -> [SyncStoredRow] {
        var found: [SyncStoredRow] = []
        for (table, tableKeys) in Dictionary(grouping: keys, by: \.table) {
            for chunk in tableKeys.chunked(Self.chunkSize) {
                found += try storedRows(db.makeStatement(sql: """
                    SELECT * FROM sync_server_row WHERE table_name = ? AND id IN (\(placeholders(chunk.count)))
                    """), arguments: StatementArguments([table] + chunk.map(\.id.uuidString)))
            }
        }
        return found
    }

    /// The live rows that reference any of `parents`.
    func children(_ db: Database, of parents: [SyncRowKey]) throws -> [SyncStoredRow] {
        var found: [SyncRowKey: SyncStoredRow] = [:]
        for (table, tableParents) in Dictionary(grouping: parents, by: \.table) {
            for chunk in tableParents.chunked(Self.chunkSize) {
                let rows = try storedRows(db.makeStatement(sql: """
                    SELECT DISTINCT r.* FROM sync_server_reference f
                    JOIN sync_server_row r ON r.table_name = f.table_name AND r.id = f.id
                    WHERE f.parent_table = ? AND f.parent_id IN (\(placeholders(chunk.count)))
                    """), arguments: StatementArguments([table] + chunk.map(\.id.uuidString)))
                for row in rows { found[row.key] = row }
            }
        }
        return Array(found.values)
    }

    /// The answers recorded for these mutation ids, by mutation id.
    func answers(_ db: Database, _ mutationIDs: [UUID]) throws -> [UUID: SyncRecordedAnswer] {
        var found: [UUID: SyncRecordedAnswer] = [:]
        for chunk in mutationIDs.chunked(Self.chunkSize) {
            let rows = try Row.fetchAll(db, sql: """
                SELECT * FROM sync_server_answer WHERE mutation_id IN (\(placeholders(chunk.count)))
                """, arguments: StatementArguments(chunk.map { $0.databaseValue }))
            let requested = Dictionary(chunk.map { ($0.databaseValue, $0) }, uniquingKeysWith: { first, _ in first })
            for row in rows {
                guard let mutationID = requested[row["mutation_id"]] else { continue }
                found[mutationID] = try SyncRecordedAnswer(mutationID: mutationID, columns: SyncRecordedAnswer.Columns(
                    table: row["table_name"], rowID: row["row_id"], operation: row["operation"],
                    changeFingerprint: row["change_fingerprint"], status: row["status"],
                    version: row["version"], serverValues: row["server_values"],
                    answeredAt: Date(timeIntervalSince1970: row["answered_at"])), schema: schema)
            }
        }
        return found
    }

    /// Writes a row (a live one's references replace its old ones).
    static func save(_ db: Database, _ row: SyncStoredRow, schema: SyncSchema) throws {
        let columns = try row.columns()
        try db.execute(sql: """
            INSERT OR REPLACE INTO sync_server_row (table_name, id, version, row_values, column_versions, deleted_at, owner_name, partition_key)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [row.key.table, row.key.id.uuidString, row.version, columns.values, columns.columnVersions,
                             columns.deletedAt?.timeIntervalSince1970, columns.owner, columns.partition])
        try db.execute(sql: "DELETE FROM sync_server_reference WHERE table_name = ? AND id = ?",
                       arguments: [row.key.table, row.key.id.uuidString])
        guard let table = schema.table(row.key.table) else { throw SyncChangeError.unknownTable(row.key.table) }
        for reference in row.references(in: table) {
            try db.execute(sql: """
                INSERT INTO sync_server_reference (table_name, id, column_name, parent_table, parent_id) VALUES (?, ?, ?, ?, ?)
                """, arguments: [row.key.table, row.key.id.uuidString, reference.column, reference.parent.table,
                                 reference.parent.id.uuidString])
        }
    }

    static func record(_ db: Database, _ answer: SyncRecordedAnswer) throws {
        let columns = try answer.columns()
        try db.execute(sql: """
            INSERT INTO sync_server_answer
                (mutation_id, table_name, row_id, operation, change_fingerprint, status, version, server_values, answered_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, arguments: [answer.mutationID.databaseValue, columns.table, columns.rowID, columns.operation, columns.changeFingerprint,
                             columns.status, columns.version, columns.serverValues, columns.answeredAt.timeIntervalSince1970])
    }

    /// The rows a query of `sync_server_row` selects, checked by the
    /// declaration. The hot reads, whose SQL has few variants, pass a
    /// cached statement (``Database/cachedStatement(sql:)``): preparing
    /// one costs more than running it on a page of rows.
    func storedRows(_ statement: Statement, arguments: StatementArguments) throws -> [SyncStoredRow] {
        try Row.fetchAll(statement, arguments: arguments).map { row in
            let tableName: String = row["table_name"]
            guard let table = schema.table(tableName) else { throw SyncChangeError.unknownTable(tableName) }
            let idText: String = row["id"]
            guard let id = UUID(parsing: idText) else { throw SyncChangeError.storedRowRefused(.invalidID(table: tableName, idText)) }
            return try SyncStoredRow(
                key: SyncRowKey(table: tableName, id: id), version: row["version"],
                columns: SyncStoredRow.Columns(values: row["row_values"], columnVersions: row["column_versions"],
                                               deletedAt: (row["deleted_at"] as Double?).map(Date.init(timeIntervalSince1970:)),
                                               owner: row["owner_name"], partition: row["partition_key"]),
                table: table)
        }
    }

    private func placeholders(_ count: Int) -> String {
        Array(repeating: "?", count: count).joined(separator: ", ")
    }
}

extension Array {
    /// The array in consecutive pieces of at most `size` elements.
    func chunked(_ size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}
