import Foundation

/// A column of a table, as `PRAGMA table_info` describes it.
///
/// See <https://www.sqlite.org/pragma.html#pragma_table_info>.
public struct ColumnInfo: Sendable, Hashable {
    /// The column name.
    public let name: String
    /// The declared type, such as "INTEGER" or "TEXT" (may be empty).
    public let type: String
    /// Whether the column has a NOT NULL constraint.
    public let isNotNull: Bool
    /// The SQL of the default value, if any.
    public let defaultValueSQL: String?
    /// The 1-based position in the primary key, or 0.
    public let primaryKeyIndex: Int
    /// The position of the column in the table.
    public let position: Int
}

/// The primary key of a table.
public struct PrimaryKeyInfo: Sendable, Hashable {
    /// The columns of the primary key, in key order. For a table with no
    /// explicit primary key: `["rowid"]`.
    public let columns: [String]
    /// The column that aliases the rowid (`INTEGER PRIMARY KEY`), or nil
    /// (also for the hidden rowid of a table without an explicit primary
    /// key), as in GRDB.
    public let rowIDColumn: String?
    /// Whether the primary key is the rowid (hidden or aliased).
    public let isRowID: Bool
}

/// An index of a table.
///
/// See <https://www.sqlite.org/pragma.html#pragma_index_list>.
public struct IndexInfo: Sendable, Hashable {
    /// The index name.
    public let name: String
    /// The indexed columns, in index order.
    public let columns: [String]
    /// Whether the index is unique.
    public let isUnique: Bool
    /// How the index was made: "c" (CREATE INDEX), "u" (UNIQUE
    /// constraint) or "pk" (PRIMARY KEY constraint).
    public let origin: String
}

/// A foreign key of a table.
///
/// See <https://www.sqlite.org/pragma.html#pragma_foreign_key_list>.
public struct ForeignKeyInfo: Sendable, Hashable {
    /// The foreign key id, unique in its table.
    public let id: Int
    /// The referenced table.
    public let destinationTable: String
    /// Pairs of (origin column, destination column).
    public let mapping: [Mapping]

    public struct Mapping: Sendable, Hashable {
        public let origin: String
        public let destination: String
    }

    /// The columns of the origin table.
    public var originColumns: [String] { mapping.map(\.origin) }
    /// The columns of the destination table.
    public var destinationColumns: [String] { mapping.map(\.destination) }
}

extension Database {
    /// Whether a table exists (case-insensitive), in the main or temp schema.
    ///
    /// ```swift
    /// if try db.tableExists("player") { ... }
    /// ```
    public func tableExists(_ name: String) throws -> Bool {
        try schemaObjectExists(type: "table", name: name)
    }

    /// Whether a view exists (case-insensitive).
    public func viewExists(_ name: String) throws -> Bool {
        try schemaObjectExists(type: "view", name: name)
    }

    /// Whether a trigger exists (case-insensitive).
    public func triggerExists(_ name: String) throws -> Bool {
        try schemaObjectExists(type: "trigger", name: name)
    }

    private func schemaObjectExists(type: String, name: String) throws -> Bool {
        try Bool.fetchOne(self, sql: """
            SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = ? AND name = ? COLLATE NOCASE)
                OR EXISTS (SELECT 1 FROM sqlite_temp_master WHERE type = ? AND name = ? COLLATE NOCASE)
            """, arguments: [type, name, type, name]) ?? false
    }

    /// The columns of a table, in order. Throws if the table does not exist.
    public func columns(in tableName: String) throws -> [ColumnInfo] {
        let rows = try Row.fetchAll(self, sql: "PRAGMA table_info(\(tableName.quotedDatabaseIdentifier))")
        guard !rows.isEmpty else { throw DatabaseError.noSuchTable(tableName) }
        return rows.map { row in
            ColumnInfo(
                name: row["name"],
                type: row["type"] ?? "",
                isNotNull: row["notnull"],
                defaultValueSQL: row["dflt_value"],
                primaryKeyIndex: row["pk"],
                position: row["cid"])
        }
    }

    /// The primary key of a table, or of a view whose primary key the
    /// ``schemaSource`` knows. Throws if the table does not exist.
    public func primaryKey(_ tableName: String) throws -> PrimaryKeyInfo {
        if let schemaSource, try viewExists(tableName),
           let columns = try schemaSource.columnsForPrimaryKey(self, inView: DatabaseObjectID(name: tableName, schemaID: .main))
        {
            return PrimaryKeyInfo(columns: columns, rowIDColumn: nil, isRowID: false)
        }
        let columns = try columns(in: tableName)
        let keyColumns = columns.filter { $0.primaryKeyIndex > 0 }.sorted { $0.primaryKeyIndex < $1.primaryKeyIndex }
        if keyColumns.isEmpty {
            return PrimaryKeyInfo(columns: [Column.rowID.name], rowIDColumn: nil, isRowID: true)
        }
        // A single INTEGER PRIMARY KEY column aliases the rowid, unless the
        // table is WITHOUT ROWID.
        // See <https://www.sqlite.org/lang_createtable.html#rowid>.
        if keyColumns.count == 1, keyColumns[0].type.uppercased() == "INTEGER", try !isWithoutRowIDTable(tableName) {
            return PrimaryKeyInfo(columns: [keyColumns[0].name], rowIDColumn: keyColumns[0].name, isRowID: true)
        }
        return PrimaryKeyInfo(columns: keyColumns.map(\.name), rowIDColumn: nil, isRowID: false)
    }

    private func isWithoutRowIDTable(_ tableName: String) throws -> Bool {
        // A WITHOUT ROWID table has an index row for its primary key in
        // index_list with origin "pk"; a rowid table with INTEGER PRIMARY
        // KEY has none.
        try indexes(on: tableName).contains { $0.origin == "pk" }
    }

    /// The indexes of a table. Throws if the table does not exist.
    public func indexes(on tableName: String) throws -> [IndexInfo] {
        guard try tableExists(tableName) else { throw DatabaseError.noSuchTable(tableName) }
        return try Row.fetchAll(self, sql: "PRAGMA index_list(\(tableName.quotedDatabaseIdentifier))").map { row in
            let name: String = row["name"]
            let columns = try Row.fetchAll(self, sql: "PRAGMA index_info(\(name.quotedDatabaseIdentifier))")
                .sorted { ($0["seqno"] as Int) < ($1["seqno"] as Int) }
                .compactMap { $0["name"] as String? }
            return IndexInfo(name: name, columns: columns, isUnique: row["unique"], origin: row["origin"] ?? "c")
        }
    }

    /// The foreign keys of a table. Throws if the table does not exist.
    public func foreignKeys(on tableName: String) throws -> [ForeignKeyInfo] {
        guard try tableExists(tableName) else { throw DatabaseError.noSuchTable(tableName) }
        var foreignKeys: [ForeignKeyInfo] = []
        var current: (id: Int, table: String, mapping: [(String, String?)])?
        func flush() throws {
            guard let key = current else { return }
            // A foreign key with no destination columns targets the primary
            // key of the destination table.
            let destinationColumns = key.mapping.contains { $0.1 == nil }
                ? try primaryKey(key.table).columns
                : key.mapping.map { $0.1! }
            foreignKeys.append(ForeignKeyInfo(
                id: key.id,
                destinationTable: key.table,
                mapping: zip(key.mapping, destinationColumns).map { ForeignKeyInfo.Mapping(origin: $0.0, destination: $1) }))
        }
        let rows = try Row.fetchAll(self, sql: "PRAGMA foreign_key_list(\(tableName.quotedDatabaseIdentifier))")
        for row in rows {
            let id: Int = row["id"]
            if current?.id != id {
                try flush()
                current = (id, row["table"], [])
            }
            current!.mapping.append((row["from"], row["to"]))
        }
        try flush()
        return foreignKeys.sorted { $0.id < $1.id }
    }
}
