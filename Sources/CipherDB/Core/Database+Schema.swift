import CSQLCipher

/// The kinds of objects that a schema table (`sqlite_master`) lists.
enum SchemaObjectType: String {
    case index, table, trigger, view
}

extension Database {
    // MARK: - Schema version and cache

    /// The schema version of the database (`PRAGMA schema_version`), which
    /// SQLite increments at each schema change.
    ///
    /// ```swift
    /// let version = try dbQueue.read { db in try db.schemaVersion() }
    /// ```
    ///
    /// See <https://www.sqlite.org/pragma.html#pragma_schema_version>.
    public func schemaVersion() throws -> Int32 {
        guard let version = try Int32.fetchOne(cachedStatement(sql: "PRAGMA schema_version")) else {
            throw DatabaseError(message: "PRAGMA schema_version returned no value")
        }
        return version
    }

    /// Forgets what this connection knows of the schema (primary keys,
    /// columns, prepared statements).
    ///
    /// CipherDB clears it by itself when this connection changes the
    /// schema, and at the start of each database access when another
    /// connection did. Call it after another connection changed the schema
    /// during the current access.
    public func clearSchemaCache() {
        clearStatementCache()
    }

    // MARK: - Schemas

    /// The schemas of the connection, in the order SQLite resolves
    /// unqualified names: temp, main, then attached databases. The
    /// temporary schema is there once the connection has one (`PRAGMA
    /// database_list` lists it after the first temporary object), as in
    /// GRDB; reading `sqlite_temp_master` would create it.
    ///
    /// See <https://www.sqlite.org/lang_naming.html>.
    func schemaIdentifiers() throws -> [DatabaseSchemaID] {
        var schemaIDs = try Row.fetchAll(self, sql: "PRAGMA database_list").map { row in
            DatabaseSchemaID(name: row[1])
        }
        if let tempIndex = schemaIDs.firstIndex(of: .temp) {
            schemaIDs.insert(schemaIDs.remove(at: tempIndex), at: 0)
        }
        return schemaIDs
    }

    /// The schema named `schemaName` (case-insensitive), or a "no such
    /// schema" error.
    private func schemaIdentifier(named schemaName: String) throws -> DatabaseSchemaID {
        let lowercasedName = schemaName.lowercased()
        guard let schemaID = try schemaIdentifiers().first(where: { $0.name.lowercased() == lowercasedName }) else {
            throw DatabaseError.noSuchSchema(schemaName)
        }
        return schemaID
    }

    /// The schemas to search for an object: the named one, or all of them
    /// in resolution order.
    private func schemaIdentifiers(named schemaName: String?) throws -> [DatabaseSchemaID] {
        if let schemaName {
            return try [schemaIdentifier(named: schemaName)]
        }
        return try schemaIdentifiers()
    }

    // MARK: - Existence

    /// Whether a table exists (case-insensitive), in the named schema
    /// (`main`, `temp`, or an attached database), or in any.
    ///
    /// ```swift
    /// if try db.tableExists("player") { ... }
    /// ```
    public func tableExists(_ name: String, in schemaName: String? = nil) throws -> Bool {
        try objectExists(.table, name: name, in: schemaName)
    }

    /// Whether a view exists (case-insensitive), in the named schema or
    /// in any.
    public func viewExists(_ name: String, in schemaName: String? = nil) throws -> Bool {
        try objectExists(.view, name: name, in: schemaName)
    }

    /// Whether a trigger exists (case-insensitive), in the named schema or
    /// in any.
    public func triggerExists(_ name: String, in schemaName: String? = nil) throws -> Bool {
        try objectExists(.trigger, name: name, in: schemaName)
    }

    /// Whether the table is one of SQLite's own (`sqlite_master`,
    /// `sqlite_sequence`, …).
    ///
    /// See <https://www.sqlite.org/fileformat2.html#internal_schema_objects>.
    public static func isSQLiteInternalTable(_ tableName: String) -> Bool {
        tableName.starts(with: "sqlite_") || tableName.starts(with: "pragma_")
    }

    /// Whether the table is one of those the toolkit creates
    /// (`grdb_migrations`).
    public static func isGRDBInternalTable(_ tableName: String) -> Bool {
        tableName.starts(with: "grdb_")
    }

    private func objectExists(_ type: SchemaObjectType, name: String, in schemaName: String?) throws -> Bool {
        try schemaIdentifiers(named: schemaName).contains { try objectExists(type, DatabaseObjectID(name: name, schemaID: $0)) }
    }

    func objectExists(_ type: SchemaObjectType, _ object: DatabaseObjectID) throws -> Bool {
        try Bool.fetchOne(self, sql: """
            SELECT EXISTS (SELECT 1 FROM \(object.schemaID.quotedSchemaTableSQL) WHERE type = ? AND name = ? COLLATE NOCASE)
            """, arguments: [type.rawValue, object.name]) ?? false
    }

    // MARK: - Columns

    /// The columns of a table or a view, in order, from the named schema
    /// or from the first schema that has it. Throws "no such table" if
    /// none has it.
    ///
    /// ```swift
    /// let columnNames = try db.columns(in: "player").map(\.name)
    /// ```
    public func columns(in tableName: String, in schemaName: String? = nil) throws -> [ColumnInfo] {
        try firstResult(tableName, in: schemaName, columns(in:))
    }

    /// The columns of the object, or nil if it does not exist.
    func columns(in object: DatabaseObjectID) throws -> [ColumnInfo]? {
        let columns = try Row.fetchAll(self, sql: "PRAGMA \(object.schemaID.name.quotedDatabaseIdentifier).table_info(\(object.name.quotedDatabaseIdentifier))")
            .map(ColumnInfo.init(row:))
        return columns.isEmpty ? nil : columns
    }

    // MARK: - Primary keys

    /// The primary key of a table, or of a view whose primary key the
    /// ``schemaSource`` defines, from the named schema or from the first
    /// schema that has it.
    ///
    /// ```swift
    /// try db.primaryKey("player").columns // ["id"]
    /// ```
    ///
    /// It throws "no such table: …" for a missing table, and "database
    /// view … has no primary key" for a view that the schema source does
    /// not describe.
    public func primaryKey(_ tableName: String, in schemaName: String? = nil) throws -> PrimaryKeyInfo {
        if let schemaName {
            return try firstResult(tableName, in: schemaName, primaryKey(_:))
        }
        return try cachedPrimaryKey(tableName)
    }

    /// The primary key of a table or of a described view, from the first
    /// schema that has it, without the schema cache.
    func fetchPrimaryKey(_ tableName: String) throws -> PrimaryKeyInfo {
        for schemaID in try schemaIdentifiers() {
            if let primaryKey = try primaryKey(DatabaseObjectID(name: tableName, schemaID: schemaID)) {
                return primaryKey
            }
        }
        if try viewExists(tableName) {
            throw DatabaseError.viewHasNoPrimaryKey(tableName)
        }
        throw DatabaseError.noSuchTable(tableName)
    }

    /// The primary key of the object, or nil if it is not a table, nor a
    /// view that the schema source describes.
    private func primaryKey(_ object: DatabaseObjectID) throws -> PrimaryKeyInfo? {
        if let schemaSource, try objectExists(.view, object),
           let keyColumns = try schemaSource.columnsForPrimaryKey(self, inView: object), !keyColumns.isEmpty
        {
            return try viewPrimaryKey(object, keyColumns: keyColumns)
        }
        guard try objectExists(.table, object), let columns = try columns(in: object) else {
            return nil
        }
        let keyColumns = columns
            .filter { $0.primaryKeyIndex > 0 }
            .sorted { $0.primaryKeyIndex < $1.primaryKeyIndex }
        if keyColumns.isEmpty {
            return .hiddenRowID
        }
        // A rowid table has an index for its primary key unless the key is
        // an INTEGER PRIMARY KEY, which aliases the rowid; a WITHOUT ROWID
        // table always has one, which does not store a rowid.
        // See <https://www.sqlite.org/lang_createtable.html#rowid> and
        // <https://www.sqlite.org/withoutrowid.html>.
        guard let keyIndex = try primaryKeyIndexName(of: object) else {
            return .rowID(keyColumns[0])
        }
        return try .regular(keyColumns, tableHasRowID: indexStoresRowID(keyIndex, in: object.schemaID))
    }

    /// The primary key that the schema source gives to a view: its
    /// columns, described as the view describes them.
    private func viewPrimaryKey(_ view: DatabaseObjectID, keyColumns: [String]) throws -> PrimaryKeyInfo? {
        guard let columns = try columns(in: view) else { return nil }
        let keyColumnInfos = try keyColumns.enumerated().map { index, name in
            let lowercasedName = name.lowercased()
            guard let column = columns.first(where: { $0.name.lowercased() == lowercasedName }) else {
                throw DatabaseError(message: "no such column in \(view.schemaID.viewDescription(view.name)): \(name)")
            }
            return column.withPrimaryKeyIndex(index + 1)
        }
        return .regular(keyColumnInfos, tableHasRowID: false)
    }

    /// The name of the index that `PRAGMA index_list` reports for the
    /// primary key of a table (origin "pk"), if any.
    private func primaryKeyIndexName(of table: DatabaseObjectID) throws -> String? {
        try Row.fetchAll(self, sql: "PRAGMA \(table.schemaID.name.quotedDatabaseIdentifier).index_list(\(table.name.quotedDatabaseIdentifier))")
            .first { ($0["origin"] as String?) == IndexInfo.Origin.primaryKeyConstraint.rawValue }
            .map { $0["name"] }
    }

    /// Whether the entries of an index end with the rowid (column -1 of
    /// `PRAGMA index_xinfo`): the index of a rowid table does, the primary
    /// key of a WITHOUT ROWID table does not.
    private func indexStoresRowID(_ indexName: String, in schemaID: DatabaseSchemaID) throws -> Bool {
        try Row.fetchAll(self, sql: "PRAGMA \(schemaID.name.quotedDatabaseIdentifier).index_xinfo(\(indexName.quotedDatabaseIdentifier))")
            .contains { ($0["cid"] as Int) == -1 }
    }

    // MARK: - Indexes

    /// The indexes of a table, from the named schema or from the first
    /// schema that has it. Throws "no such table" if none has it. Indexes
    /// on expressions are not listed.
    ///
    /// ```swift
    /// let uniqueIndexes = try db.indexes(on: "player").filter(\.isUnique)
    /// ```
    public func indexes(on tableName: String, in schemaName: String? = nil) throws -> [IndexInfo] {
        try firstResult(tableName, in: schemaName, indexes(on:))
    }

    private func indexes(on table: DatabaseObjectID) throws -> [IndexInfo]? {
        // PRAGMA index_list says nothing of a missing table.
        guard try objectExists(.table, table) else { return nil }
        let schema = table.schemaID.name.quotedDatabaseIdentifier
        return try Row.fetchAll(self, sql: "PRAGMA \(schema).index_list(\(table.name.quotedDatabaseIdentifier))")
            .compactMap { row -> IndexInfo? in
                let name: String = row["name"]
                var columns: [String] = []
                let columnRows = try Row.fetchAll(self, sql: "PRAGMA \(schema).index_info(\(name.quotedDatabaseIdentifier))")
                    .sorted { ($0["seqno"] as Int) < ($1["seqno"] as Int) }
                for columnRow in columnRows {
                    // The name is NULL for the rowid and for expressions,
                    // which IndexInfo cannot describe.
                    guard let column: String = columnRow["name"] else { return nil }
                    columns.append(column)
                }
                return IndexInfo(
                    name: name,
                    columns: columns,
                    isUnique: row["unique"],
                    origin: IndexInfo.Origin(rawValue: row["origin"] ?? IndexInfo.Origin.createIndex.rawValue))
            }
    }

    /// Whether the columns (case-insensitive, in any order) hold a unique
    /// key of the table: its primary key, or the columns of a unique index.
    ///
    /// ```swift
    /// try db.table("player", hasUniqueKey: ["email"]) // true if a unique index covers email
    /// ```
    public func table(_ tableName: String, hasUniqueKey columns: some Collection<String>) throws -> Bool {
        try columnsForUniqueKey(columns, in: tableName) != nil
    }

    /// The columns of the primary key or of the first unique index that
    /// the given columns contain, or nil. The rowid is a unique key of a
    /// table that has one.
    func columnsForUniqueKey(_ columns: some Collection<String>, in tableName: String) throws -> [String]? {
        let lowercasedColumns = Set(columns.map { $0.lowercased() })
        if lowercasedColumns.isEmpty { return nil }
        // Views have a primary key only through the schema source.
        if let primaryKey = try? primaryKey(tableName) {
            if primaryKey.tableHasRowID && lowercasedColumns == [Column.rowID.name] {
                return [Column.rowID.name]
            }
            if Set(primaryKey.columns.map { $0.lowercased() }).isSubset(of: lowercasedColumns) {
                return primaryKey.columns
            }
        }
        guard try tableExists(tableName) else { return nil }
        return try indexes(on: tableName)
            .first { $0.isUnique && Set($0.columns.map { $0.lowercased() }).isSubset(of: lowercasedColumns) }?
            .columns
    }

    // MARK: - Support

    /// The result of `introspect` for the named schema, or for the first
    /// schema that has the table; "no such table" if none has it.
    func firstResult<T>(
        _ tableName: String,
        in schemaName: String?,
        _ introspect: (DatabaseObjectID) throws -> T?) throws -> T
    {
        for schemaID in try schemaIdentifiers(named: schemaName) {
            if let result = try introspect(DatabaseObjectID(name: tableName, schemaID: schemaID)) {
                return result
            }
        }
        throw DatabaseError.noSuchTable(tableName)
    }
}
