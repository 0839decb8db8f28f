import Foundation
import Logging
import PostgresClient
import SyncSchema
import SyncServer

/// The reads and writes that ``PostgresSyncStore`` carries out for the
/// rules, in one transaction's connection: rows by key, children by
/// reference, answers by mutation id, each one statement whatever their
/// number (arrays bound as parameters).
struct PostgresSyncRows {
    let connection: PostgresConnection
    let logger: Logger
    let schema: SyncSchema

    /// The columns of `sync_server_row` that ``stored(_:)`` reads, in order.
    static let columns = "table_name, id, version, row_values, column_versions, deleted_at, owner_name, partition_key"

    /// The tables the store holds rows of, live or deleted: one lookup in
    /// the key's index per table.
    func storedTables() async throws -> [String] {
        var tables: [String] = []
        while true {
            let after = tables.last ?? ""
            let next = try await connection.query(
                "SELECT min(table_name) FROM sync_server_row WHERE table_name > \(after)", logger: logger
            ).first(String?.self)
            guard let next, let next else { return tables }
            tables.append(next)
        }
    }

    /// Whether `table` has a live row.
    func hasLiveRows(in table: String) async throws -> Bool {
        try await connection.query(
            "SELECT EXISTS (SELECT 1 FROM sync_server_row WHERE table_name = \(table) AND deleted_at IS NULL)", logger: logger
        ).first(Bool.self) ?? false
    }

    /// The rows of `keys` that exist, live or deleted.
    func rows(_ keys: [SyncRowKey]) async throws -> [SyncStoredRow] {
        try await stored("""
            SELECT \(unescaped: Self.prefixed("r")) FROM sync_server_row r
            JOIN unnest(\(keys.map(\.table)), \(keys.map(\.id))) AS k (table_name, id) USING (table_name, id)
            """)
    }

    /// The live rows that reference any of `parents`.
    func children(of parents: [SyncRowKey]) async throws -> [SyncStoredRow] {
        try await stored("""
            SELECT \(unescaped: Self.prefixed("r")) FROM sync_server_row r
            WHERE (r.table_name, r.id) IN (
                SELECT f.table_name, f.id FROM sync_server_reference f
                JOIN unnest(\(parents.map(\.table)), \(parents.map(\.id))) AS p (table_name, id)
                ON f.parent_table = p.table_name AND f.parent_id = p.id)
            """)
    }

    /// The answers recorded for these mutation ids, by mutation id.
    func answers(_ mutationIDs: [UUID]) async throws -> [UUID: SyncRecordedAnswer] {
        let rows = try await connection.query(
            """
            SELECT mutation_id, table_name, row_id::text, operation, change_fingerprint, status, version, server_values, answered_at
            FROM sync_server_answer WHERE mutation_id = ANY(\(mutationIDs))
            """,
            logger: logger)
        var found: [UUID: SyncRecordedAnswer] = [:]
        for (mutationID, table, rowID, operation, fingerprint, status, version, serverValues, answeredAt)
            in try rows.decode((UUID, String, String, String, String?, String, Int64?, String?, Date).self) {
            found[mutationID] = try SyncRecordedAnswer(mutationID: mutationID, columns: SyncRecordedAnswer.Columns(
                table: table, rowID: rowID.uppercased(), operation: operation, changeFingerprint: fingerprint, status: status, version: version,
                serverValues: serverValues, answeredAt: answeredAt), schema: schema)
        }
        return found
    }

    /// Writes rows (live ones and tombstones), and replaces the references
    /// of each with its new ones.
    func save(_ rows: [SyncStoredRow]) async throws {
        guard !rows.isEmpty else { return }
        let columns = try rows.map { try $0.columns() }
        let live = rows.indices.filter { rows[$0].isLive }
        let deleted = rows.indices.filter { !rows[$0].isLive }
        if !live.isEmpty {
            try await connection.query(
                """
                INSERT INTO sync_server_row (table_name, id, version, row_values, column_versions, deleted_at, owner_name, partition_key)
                SELECT table_name, id, version, row_values, column_versions, NULL, NULLIF(owner_name, ''), NULLIF(partition_key, '')
                FROM unnest(\(live.map { rows[$0].key.table }), \(live.map { rows[$0].key.id }), \(live.map { rows[$0].version }),
                            \(live.map { columns[$0].values ?? "" }), \(live.map { columns[$0].columnVersions ?? "" }),
                            \(live.map { columns[$0].owner ?? "" }), \(live.map { columns[$0].partition ?? "" }))
                    AS n (table_name, id, version, row_values, column_versions, owner_name, partition_key)
                ON CONFLICT (table_name, id) DO UPDATE SET version = EXCLUDED.version, row_values = EXCLUDED.row_values,
                    column_versions = EXCLUDED.column_versions, deleted_at = NULL, owner_name = EXCLUDED.owner_name,
                    partition_key = EXCLUDED.partition_key
                """,
                logger: logger)
        }
        if !deleted.isEmpty {
            try await connection.query(
                """
                INSERT INTO sync_server_row (table_name, id, version, row_values, column_versions, deleted_at, owner_name, partition_key)
                SELECT table_name, id, version, NULL, NULL, deleted_at, NULLIF(owner_name, ''), NULLIF(partition_key, '')
                FROM unnest(\(deleted.map { rows[$0].key.table }), \(deleted.map { rows[$0].key.id }),
                            \(deleted.map { rows[$0].version }), \(deleted.map { columns[$0].deletedAt ?? Date() }),
                            \(deleted.map { columns[$0].owner ?? "" }), \(deleted.map { columns[$0].partition ?? "" }))
                    AS n (table_name, id, version, deleted_at, owner_name, partition_key)
                ON CONFLICT (table_name, id) DO UPDATE SET version = EXCLUDED.version, row_values = NULL,
                    column_versions = NULL, deleted_at = EXCLUDED.deleted_at, owner_name = EXCLUDED.owner_name,
                    partition_key = EXCLUDED.partition_key
                """,
                logger: logger)
        }
        try await connection.query(
            """
            DELETE FROM sync_server_reference f
            USING unnest(\(rows.map(\.key.table)), \(rows.map(\.key.id))) AS n (table_name, id)
            WHERE f.table_name = n.table_name AND f.id = n.id
            """,
            logger: logger)
        var references: [(key: SyncRowKey, reference: SyncRowReference)] = []
        for row in rows {
            guard let table = schema.table(row.key.table) else { throw SyncChangeError.unknownTable(row.key.table) }
            references += row.references(in: table).map { (row.key, $0) }
        }
        guard !references.isEmpty else { return }
        try await connection.query(
            """
            INSERT INTO sync_server_reference (table_name, id, column_name, parent_table, parent_id)
            SELECT * FROM unnest(\(references.map(\.key.table)), \(references.map(\.key.id)), \(references.map(\.reference.column)),
                                 \(references.map(\.reference.parent.table)), \(references.map(\.reference.parent.id)))
            """,
            logger: logger)
    }

    /// Keeps the answers of a batch. A version or a server row that an
    /// answer lacks is bound as an empty text, read back as NULL (arrays
    /// are bound without NULLs).
    func record(_ answers: [SyncRecordedAnswer]) async throws {
        guard !answers.isEmpty else { return }
        let columns = try answers.map { try $0.columns() }
        try await connection.query(
            """
            INSERT INTO sync_server_answer
                (mutation_id, table_name, row_id, operation, change_fingerprint, status, version, server_values, answered_at)
            SELECT mutation_id, table_name, row_id, operation, NULLIF(change_fingerprint, ''), status, NULLIF(version, '')::bigint,
                   NULLIF(server_values, ''), answered_at
            FROM unnest(\(answers.map(\.mutationID)), \(columns.map(\.table)), \(answers.map(\.key.id)), \(columns.map(\.operation)),
                        \(columns.map { $0.changeFingerprint ?? "" }), \(columns.map(\.status)),
                        \(columns.map { $0.version.map(String.init) ?? "" }),
                        \(columns.map { $0.serverValues ?? "" }), \(columns.map(\.answeredAt)))
                AS n (mutation_id, table_name, row_id, operation, change_fingerprint, status, version, server_values, answered_at)
            """,
            logger: logger)
    }

    /// The rows a query of ``columns`` selects, checked by the declaration.
    func stored(_ query: PostgresQuery) async throws -> [SyncStoredRow] {
        try await connection.query(query.prepared(), logger: logger)
            .decode((String, UUID, Int64, String?, String?, Date?, String?, String?).self)
            .map { tableName, id, version, values, columnVersions, deletedAt, owner, partition in
                guard let table = schema.table(tableName) else { throw SyncChangeError.unknownTable(tableName) }
                return try SyncStoredRow(
                    key: SyncRowKey(table: tableName, id: id), version: version,
                    columns: SyncStoredRow.Columns(values: values, columnVersions: columnVersions, deletedAt: deletedAt,
                                                   owner: owner, partition: partition),
                    table: table)
            }
    }

    private static func prefixed(_ alias: String) -> String {
        columns.split(separator: ", ").map { "\(alias).\($0)" }.joined(separator: ", ")
    }
}
