
/// What records need to know of the schema, and the statements they reuse,
/// per connection. Cleared when this connection changes the schema, rolls
/// back, or finds in an access that another connection changed it
/// (`PRAGMA schema_version`, read once per access, at the first use of
/// the cache or when a read's snapshot starts).
struct SchemaCache {
    struct StatementKey: Hashable {
        enum Kind: Hashable { case insert, update(keyColumns: [String]), keyed(KeyedStatementKind) }
        let kind: Kind
        let table: String
        let columns: [String]
        let conflict: Database.ConflictResolution
    }

    var schemaVersion: Int32?
    /// Set at the start of an access: another connection may have changed
    /// the schema since the cache was filled.
    var mayBeStale = false
    var primaryKeys: [String: PrimaryKeyInfo] = [:]
    var columnNames: [String: [String]] = [:]
    var isView: [String: Bool] = [:]
    var statements: [StatementKey: Statement] = [:]
    /// The last primary key and statement asked for: records written in a
    /// loop ask for the same ones every time, and comparing the names is
    /// cheaper than hashing them.
    var lastPrimaryKey: (table: String, primaryKey: PrimaryKeyInfo)?
    var lastColumnNames: (table: String, columnNames: [String])?
    var lastStatement: (key: StatementKey, statement: Statement)?

    var isEmpty: Bool { primaryKeys.isEmpty && columnNames.isEmpty && isView.isEmpty && statements.isEmpty }
}

/// The statements that target one row by its primary key.
enum KeyedStatementKind: Hashable {
    /// `DELETE FROM "t" WHERE "id"=?`
    case delete
    /// `SELECT EXISTS (SELECT 1 FROM "t" WHERE "id"=?)`
    case exists
}

extension Database {
    /// The primary key of a table, from the schema cache.
    func cachedPrimaryKey(_ table: String) throws -> PrimaryKeyInfo {
        try checkSchemaCache()
        if let last = schemaCache.lastPrimaryKey, last.table == table {
            return last.primaryKey
        }
        let key = table.lowercased()
        let primaryKey: PrimaryKeyInfo
        if let cached = schemaCache.primaryKeys[key] {
            primaryKey = cached
        } else {
            primaryKey = try fetchPrimaryKey(table)
            try recordSchemaVersion()
            schemaCache.primaryKeys[key] = primaryKey
        }
        schemaCache.lastPrimaryKey = (table, primaryKey)
        return primaryKey
    }

    /// The column names of a table, in table order, from the schema cache.
    func cachedColumnNames(_ table: String) throws -> [String] {
        try checkSchemaCache()
        if let last = schemaCache.lastColumnNames, last.table == table {
            return last.columnNames
        }
        let key = table.lowercased()
        let columnNames: [String]
        if let cached = schemaCache.columnNames[key] {
            columnNames = cached
        } else {
            columnNames = try columns(in: table).map(\.name)
            try recordSchemaVersion()
            schemaCache.columnNames[key] = columnNames
        }
        schemaCache.lastColumnNames = (table, columnNames)
        return columnNames
    }

    /// Whether the name is the one of a view, from the schema cache.
    func cachedViewExists(_ name: String) throws -> Bool {
        try checkSchemaCache()
        let key = name.lowercased()
        if let isView = schemaCache.isView[key] { return isView }
        let isView = try viewExists(name)
        try recordSchemaVersion()
        schemaCache.isView[key] = isView
        return isView
    }

    /// `INSERT [OR …] INTO "t" ("a", "b") VALUES (?,?)`, prepared once per
    /// table, columns and conflict resolution.
    func insertStatement(table: String, columns: [String], onConflict conflict: ConflictResolution) throws -> Statement {
        let key = SchemaCache.StatementKey(kind: .insert, table: table, columns: columns, conflict: conflict)
        return try cachedRecordStatement(key) {
            let insert = conflict == .abort ? "INSERT" : "INSERT OR \(conflict.rawValue)"
            if columns.isEmpty {
                return "\(insert) INTO \(table.quotedDatabaseIdentifier) DEFAULT VALUES"
            }
            let columnsSQL = columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
            return "\(insert) INTO \(table.quotedDatabaseIdentifier) (\(columnsSQL)) VALUES (\(databaseQuestionMarks(count: columns.count)))"
        }
    }

    /// `UPDATE [OR …] "t" SET "a"=?, "b"=? WHERE "id"=?`, prepared once per
    /// table, columns, key and conflict resolution.
    func updateStatement(table: String, setColumns: [String], keyColumns: [String], onConflict conflict: ConflictResolution) throws -> Statement {
        let key = SchemaCache.StatementKey(kind: .update(keyColumns: keyColumns), table: table, columns: setColumns, conflict: conflict)
        return try cachedRecordStatement(key) {
            let update = conflict == .abort ? "UPDATE" : "UPDATE OR \(conflict.rawValue)"
            let assignments = setColumns.map { "\($0.quotedDatabaseIdentifier)=?" }.joined(separator: ", ")
            return "\(update) \(table.quotedDatabaseIdentifier) SET \(assignments) WHERE \(keyCondition(keyColumns))"
        }
    }

    /// A statement that targets one row by its primary key, prepared once
    /// per table and key.
    func keyedStatement(_ kind: KeyedStatementKind, table: String, keyColumns: [String]) throws -> Statement {
        let key = SchemaCache.StatementKey(kind: .keyed(kind), table: table, columns: keyColumns, conflict: .abort)
        return try cachedRecordStatement(key) {
            switch kind {
            case .delete:
                return "DELETE FROM \(table.quotedDatabaseIdentifier) WHERE \(keyCondition(keyColumns))"
            case .exists:
                return "SELECT EXISTS (SELECT 1 FROM \(table.quotedDatabaseIdentifier) WHERE \(keyCondition(keyColumns)))"
            }
        }
    }

    /// `"a"=? AND "b"=?`, spelled as GRDB spells it.
    private func keyCondition(_ columns: [String]) -> String {
        columns.map { "\($0.quotedDatabaseIdentifier)=?" }.joined(separator: " AND ")
    }

    /// The statement of `key`, prepared from `sql()` the first time.
    private func cachedRecordStatement(_ key: SchemaCache.StatementKey, sql: () -> String) throws -> Statement {
        try checkSchemaCache()
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
            schemaCache.schemaVersion = try schemaVersion()
        }
    }

    /// Called at the start of each access: the first use of the schema
    /// cache in the access checks it (``checkSchemaCache()``). An access
    /// that does not use it reads nothing.
    func schemaCacheMayBeStale() {
        if !schemaCache.isEmpty { schemaCache.mayBeStale = true }
    }

    /// Clears the schema cache if another connection changed the schema
    /// since it was filled, once per access. In a transaction, the schema
    /// version is the one of the transaction's snapshot.
    private func checkSchemaCache() throws {
        guard schemaCache.mayBeStale else { return }
        schemaCache.mayBeStale = false
        forgetSchemaCache(unlessFilledAt: try schemaVersion())
    }

    /// Starts the snapshot of the deferred transaction that just began,
    /// which SQLite would start at its first read: a read of a pool then
    /// sees the database as it was when the read began, not as later writes
    /// left it. The schema cache is checked against this snapshot.
    func startSnapshot() throws {
        schemaCache.mayBeStale = false
        let version = try schemaVersion()
        forgetSchemaCache(unlessFilledAt: version)
        if statementsSchemaVersion != version {
            if statementsSchemaVersion != nil {
                // Another connection changed the schema: the statements
                // prepared before may show the schema they were prepared
                // on, and so would new ones until SQLite reloads it, which
                // a read of the schema table does (its schema cookie is
                // checked as it runs; `PRAGMA schema_version`'s is not).
                clearStatementCache()
                try execute(sql: "SELECT 1 FROM sqlite_master LIMIT 1")
            }
            statementsSchemaVersion = version
        }
    }

    /// Forgets the schema cache unless it was filled at this schema version.
    private func forgetSchemaCache(unlessFilledAt version: Int32?) {
        if !schemaCache.isEmpty && version != schemaCache.schemaVersion {
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
