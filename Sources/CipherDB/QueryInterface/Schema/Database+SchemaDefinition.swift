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

    /// Drops a table.
    public func drop(table name: String) throws {
        try execute(sql: "DROP TABLE \(name.quotedDatabaseIdentifier)")
    }

    /// Drops a table if it exists.
    public func drop(table name: String, ifExists: Bool) throws {
        try execute(sql: "DROP TABLE \(ifExists ? "IF EXISTS " : "")\(name.quotedDatabaseIdentifier)")
    }

    /// Renames a table.
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
        let alteration = TableAlteration(tableName: name)
        try body(alteration)
        for sql in try alteration.sql(self) {
            try execute(sql: sql)
        }
    }

    /// Creates an index.
    ///
    /// ```swift
    /// try db.create(index: "player_on_name", on: "player", columns: ["name"], options: [.unique])
    /// ```
    ///
    /// See <https://www.sqlite.org/lang_createindex.html>.
    public func create(index name: String, on table: String, columns: [String], options: IndexOptions = [],
                       condition: (any SQLExpressible)? = nil) throws {
        var sql = indexSQL(named: name, table: table, columns: columns,
                           unique: options.contains(.unique), ifNotExists: options.contains(.ifNotExists))
        if let condition {
            sql += " WHERE " + (try condition.sqlExpression.sql(.inliningValues(self)))
        }
        try execute(sql: sql)
    }

    /// Creates an index (GRDB's former signature).
    public func create(index name: String, on table: String, columns: [String], unique: Bool = false,
                       ifNotExists: Bool = false, condition: (any SQLExpressible)? = nil) throws {
        var options: IndexOptions = []
        if unique { options.insert(.unique) }
        if ifNotExists { options.insert(.ifNotExists) }
        try create(index: name, on: table, columns: columns, options: options, condition: condition)
    }

    /// Drops an index.
    public func drop(index name: String) throws {
        try execute(sql: "DROP INDEX \(name.quotedDatabaseIdentifier)")
    }
}

/// Changes to a table, given to ``Database/alter(table:body:)``.
public final class TableAlteration {
    let tableName: String
    private var addedColumns: [ColumnDefinition] = []
    private var unsupported: String?

    init(tableName: String) {
        self.tableName = tableName
    }

    /// `ALTER TABLE … ADD COLUMN …`. SQLite requires a default value for a
    /// NOT NULL column added to a table that has rows.
    @discardableResult
    public func add(column name: String, _ type: Database.ColumnType? = nil) -> ColumnDefinition {
        let column = ColumnDefinition(name: name, type: type)
        addedColumns.append(column)
        return column
    }

    /// Not available on SQLite 3.15.2: throws when the alteration runs.
    public func rename(column name: String, to newName: String) {
        unsupported = unsupported ?? "cannot rename column \(name) of table \(tableName): SQLite 3.15.2 (SQLCipher 3.4.1) has no RENAME COLUMN; create a new table with the new column name, copy the rows with INSERT INTO … SELECT, drop the old table and rename the new one, in the same migration"
    }

    /// Not available on SQLite 3.15.2: throws when the alteration runs.
    public func drop(column name: String) {
        unsupported = unsupported ?? "cannot drop column \(name) of table \(tableName): SQLite 3.15.2 (SQLCipher 3.4.1) has no DROP COLUMN; create a new table without the column, copy the rows with INSERT INTO … SELECT, drop the old table and rename the new one, in the same migration"
    }

    func sql(_ db: Database) throws -> [String] {
        if let unsupported {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: unsupported)
        }
        var statements: [String] = []
        for column in addedColumns {
            statements.append("ALTER TABLE \(tableName.quotedDatabaseIdentifier) ADD COLUMN \(try column.sql(db))")
            if column.isIndexed {
                statements.append(automaticIndexSQL(table: tableName, column: column.name, ifNotExists: false))
            }
        }
        return statements
    }
}
