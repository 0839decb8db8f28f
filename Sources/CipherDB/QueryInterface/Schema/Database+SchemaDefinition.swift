// Schema changes: tables, columns and indexes.
//
// SQLite 3.15.2's `ALTER TABLE` can only add a column and rename a table:
// renaming or dropping a column needs a new table (see Docs/Records.md).

extension Database {
    /// Creates a table.
    ///
    /// ```swift
    /// try db.create(table: "player") { t in
    ///     t.autoIncrementedPrimaryKey("id")
    ///     t.column("name", .text).notNull()
    /// }
    /// ```
    ///
    /// See <https://www.sqlite.org/lang_createtable.html>.
    public func create(table name: String, options: TableOptions = [], body: (TableDefinition) throws -> Void) throws {
        let definition = TableDefinition(name: name, options: options)
        try body(definition)
        for sql in try definition.sql(self) {
            try execute(sql: sql)
        }
    }

    /// Creates a table (GRDB's former signature):
    /// `try db.create(table: "player", ifNotExists: true) { t in … }`.
    @_disfavoredOverload
    public func create(
        table name: String,
        temporary: Bool = false,
        ifNotExists: Bool = false,
        withoutRowID: Bool = false,
        body: (TableDefinition) throws -> Void) throws
    {
        var options: TableOptions = []
        if temporary { options.insert(.temporary) }
        if ifNotExists { options.insert(.ifNotExists) }
        if withoutRowID { options.insert(.withoutRowID) }
        try create(table: name, options: options, body: body)
    }

    /// Drops a table: `try db.drop(table: "player")`.
    public func drop(table name: String) throws {
        try execute(sql: "DROP TABLE \(name.quotedDatabaseIdentifier)")
    }

    /// Drops a table if it exists: `try db.drop(table: "player", ifExists: true)`.
    public func drop(table name: String, ifExists: Bool) throws {
        try execute(sql: "DROP TABLE \(ifExists ? "IF EXISTS " : "")\(name.quotedDatabaseIdentifier)")
    }

    /// Renames a table: `try db.rename(table: "player", to: "gamer")`.
    ///
    /// See <https://www.sqlite.org/lang_altertable.html>.
    public func rename(table name: String, to newName: String) throws {
        try execute(sql: "ALTER TABLE \(name.quotedDatabaseIdentifier) RENAME TO \(newName.quotedDatabaseIdentifier)")
    }

    /// Alters a table: adds columns (SQLite 3.15.2 can do nothing else in
    /// place).
    ///
    /// ```swift
    /// try db.alter(table: "player") { t in
    ///     t.add(column: "email", .text)
    /// }
    /// ```
    ///
    /// `rename(column:to:)` and `drop(column:)` throw: SQLite 3.15.2 has no
    /// `RENAME COLUMN` (3.25) nor `DROP COLUMN` (3.35).
    public func alter(table name: String, body: (TableAlteration) throws -> Void) throws {
        let alteration = TableAlteration(name: name)
        try body(alteration)
        for sql in try alteration.sql(self) {
            try execute(sql: sql)
        }
    }

    /// Creates an index on columns.
    ///
    /// ```swift
    /// try db.create(index: "player_on_name", on: "player", columns: ["name"], options: [.unique])
    /// ```
    ///
    /// See <https://www.sqlite.org/lang_createindex.html>.
    public func create(index name: String, on table: String, columns: [String], options: IndexOptions = [],
                       condition: (any SQLExpressible)? = nil) throws {
        let index = IndexDefinition(name: name, table: table, columns: columns, options: options, condition: condition?.sqlExpression)
        try execute(sql: index.sql(self))
    }

    /// Creates an index on columns (GRDB's former signature):
    /// `try db.create(index: "player_on_name", on: "player", columns: ["name"], unique: true)`.
    @_disfavoredOverload
    public func create(index name: String, on table: String, columns: [String], unique: Bool = false,
                       ifNotExists: Bool = false, condition: (any SQLExpressible)? = nil) throws {
        var options: IndexOptions = []
        if unique { options.insert(.unique) }
        if ifNotExists { options.insert(.ifNotExists) }
        try create(index: name, on: table, columns: columns, options: options, condition: condition)
    }

    /// Creates an index on expressions.
    ///
    /// ```swift
    /// try db.create(index: "player_on_name_nocase", on: "player", expressions: [Column("name").collating(.nocase)])
    /// ```
    ///
    /// See <https://www.sqlite.org/expridx.html>.
    public func create(index name: String, on table: String, expressions: [any SQLExpressible], options: IndexOptions = [],
                       condition: (any SQLExpressible)? = nil) throws {
        let index = IndexDefinition(
            name: name, table: table, expressions: expressions.map(\.sqlExpression),
            options: options, condition: condition?.sqlExpression)
        try execute(sql: index.sql(self))
    }

    /// Creates an index on columns, named `index_table_on_a_b`.
    ///
    /// ```swift
    /// // CREATE INDEX "index_player_on_email" ON "player"("email")
    /// try db.create(indexOn: "player", columns: ["email"])
    /// ```
    public func create(indexOn table: String, columns: [String], options: IndexOptions = [],
                       condition: (any SQLExpressible)? = nil) throws {
        let index = IndexDefinition(table: table, columns: columns, options: options, condition: condition?.sqlExpression)
        try execute(sql: index.sql(self))
    }

    /// Drops an index: `try db.drop(index: "player_on_email")`.
    public func drop(index name: String) throws {
        try execute(sql: "DROP INDEX \(name.quotedDatabaseIdentifier)")
    }

    /// Drops the index on exactly these columns, in this order (compared
    /// case-insensitively), whatever its name. Does nothing if there is
    /// none; throws if the table does not exist.
    ///
    /// ```swift
    /// try db.drop(indexOn: "player", columns: ["email"])
    /// ```
    public func drop(indexOn table: String, columns: [String]) throws {
        let lowercasedColumns = columns.map { $0.lowercased() }
        let matches = try indexes(on: table).filter { $0.columns.map { $0.lowercased() } == lowercasedColumns }
        if matches.count == 1 {
            try drop(index: matches[0].name)
        }
    }

    /// Rebuilds the indexes that use a built-in collation:
    /// `try db.reindex(collation: .nocase)`.
    ///
    /// See <https://www.sqlite.org/lang_reindex.html>.
    public func reindex(collation: Database.CollationName) throws {
        try execute(sql: "REINDEX \(collation.rawValue)")
    }

    /// Rebuilds the indexes that use a collation, after its order changed:
    /// `try db.reindex(collation: .localizedCompare)`.
    public func reindex(collation: DatabaseCollation) throws {
        try reindex(collation: Database.CollationName(rawValue: collation.name))
    }
}
