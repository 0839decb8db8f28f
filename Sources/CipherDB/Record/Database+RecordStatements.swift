import CSQLCipher

/// What records need to know of the schema, and the statements they reuse,
/// per connection. Cleared when this connection changes the schema, rolls
/// back, or finds at the start of an access that another connection
/// changed it (`PRAGMA schema_version`).
struct SchemaCache {
    struct StatementKey: Hashable {
        enum Kind: Hashable { case insert, update(keyColumns: [String]) }
        let kind: Kind
        let table: String
        let columns: [String]
        let conflict: Database.ConflictResolution
    }

    var schemaVersion: Int32?
    var primaryKeys: [String: PrimaryKeyInfo] = [:]
    var statements: [StatementKey: Statement] = [:]
    /// The last primary key and statement asked for: records written in a
    /// loop ask for the same ones every time, and comparing the names is
    /// cheaper than hashing them.
    var lastPrimaryKey: (table: String, primaryKey: PrimaryKeyInfo)?
    var lastStatement: (key: StatementKey, statement: Statement)?

    var isEmpty: Bool { primaryKeys.isEmpty && statements.isEmpty }
}

extension PrimaryKeyInfo {
    /// The `INTEGER PRIMARY KEY` column, or nil for the hidden rowid and
    /// other keys.
    var visibleRowIDColumn: String? {
        rowIDColumn.flatMap { $0.isEqualIgnoringCase("rowid") && columns.count == 1 && columns[0] == "rowid" ? nil : $0 }
    }
}

extension Database {
    /// The primary key of a table, from the schema cache.
    func cachedPrimaryKey(_ table: String) throws -> PrimaryKeyInfo {
        if let last = schemaCache.lastPrimaryKey, last.table == table {
            return last.primaryKey
        }
        let key = table.lowercased()
        let primaryKey: PrimaryKeyInfo
        if let cached = schemaCache.primaryKeys[key] {
            primaryKey = cached
        } else {
            primaryKey = try self.primaryKey(table)
            try recordSchemaVersion()
            schemaCache.primaryKeys[key] = primaryKey
        }
        schemaCache.lastPrimaryKey = (table, primaryKey)
        return primaryKey
    }

    /// `INSERT [OR …] INTO table (columns) VALUES (?, …)`, prepared once per
    /// table, columns and conflict resolution.
    func insertStatement(table: String, columns: [String], onConflict conflict: ConflictResolution) throws -> Statement {
        let key = SchemaCache.StatementKey(kind: .insert, table: table, columns: columns, conflict: conflict)
        return try cachedRecordStatement(key) {
            let or = conflict == .abort ? "" : "OR \(conflict.rawValue) "
            return columns.isEmpty
                ? "INSERT \(or)INTO \(table.quotedDatabaseIdentifier) DEFAULT VALUES"
                : "INSERT \(or)INTO \(table.quotedDatabaseIdentifier) (\(columns.map(\.quotedDatabaseIdentifier).joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: columns.count).joined(separator: ", ")))"
        }
    }

    /// `UPDATE [OR …] table SET a = ?, … WHERE key = ? AND …`, prepared once
    /// per table, columns, key and conflict resolution.
    func updateStatement(table: String, setColumns: [String], keyColumns: [String], onConflict conflict: ConflictResolution) throws -> Statement {
        let key = SchemaCache.StatementKey(kind: .update(keyColumns: keyColumns), table: table, columns: setColumns, conflict: conflict)
        return try cachedRecordStatement(key) {
            let or = conflict == .abort ? "" : "OR \(conflict.rawValue) "
            let assignments = setColumns.map { "\($0.quotedDatabaseIdentifier) = ?" }.joined(separator: ", ")
            let condition = keyColumns.map { "\($0.quotedDatabaseIdentifier) = ?" }.joined(separator: " AND ")
            return "UPDATE \(or)\(table.quotedDatabaseIdentifier) SET \(assignments) WHERE \(condition)"
        }
    }

    /// The statement of `key`, prepared from `sql()` the first time.
    private func cachedRecordStatement(_ key: SchemaCache.StatementKey, sql: () -> String) throws -> Statement {
        if let last = schemaCache.lastStatement, last.key == key {
            return last.statement
        }
        let statement: Statement
        if let cached = schemaCache.statements[key] {
            statement = cached
        } else {
            statement = try makeStatement(sql: sql())
            try recordSchemaVersion()
            schemaCache.statements[key] = statement
        }
        schemaCache.lastStatement = (key, statement)
        return statement
    }

    /// The schema version the cache is valid for, read when it is first
    /// filled.
    private func recordSchemaVersion() throws {
        if schemaCache.schemaVersion == nil {
            schemaCache.schemaVersion = try currentSchemaVersion()
        }
    }

    private func currentSchemaVersion() throws -> Int32? {
        try Int32.fetchOne(cachedStatement(sql: "PRAGMA schema_version"))
    }

    /// Clears the schema cache if another connection changed the schema
    /// since it was filled. Called at the start of each access.
    func validateSchemaCache() {
        guard !schemaCache.isEmpty, !isClosed else { return }
        if (try? currentSchemaVersion()) != schemaCache.schemaVersion {
            schemaCache = SchemaCache()
        }
    }

    /// Forgets the schema cache after this connection changed the schema
    /// or rolled back.
    func invalidateSchemaCache() {
        if !schemaCache.isEmpty || schemaCache.schemaVersion != nil {
            schemaCache = SchemaCache()
        }
    }
}

extension Statement {
    /// Executes with positional values that fill every parameter, with no
    /// intermediate dictionary: the path of record inserts and updates.
    func execute(values: [DatabaseValue]) throws {
        try prepareExecution(arguments: nil)
        try bind(extractedValues: values, arguments: StatementArguments(values: values))
        try runToCompletion()
    }
}

extension StatementArguments {
    init(values: [DatabaseValue]) {
        self.init()
        self.values = values
    }
}
