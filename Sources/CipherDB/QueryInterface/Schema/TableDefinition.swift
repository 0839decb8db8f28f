/// The definition of a table, given to ``Database/create(table:options:body:)``.
///
/// ```swift
/// try db.create(table: "player") { t in
///     t.autoIncrementedPrimaryKey("id")
///     t.column("name", .text).notNull()
///     t.column("score", .integer).notNull()
///     t.belongsTo("team", onDelete: .cascade)
/// }
/// ```
///
/// See <https://www.sqlite.org/lang_createtable.html>.
public final class TableDefinition {
    let name: String
    let options: TableOptions
    private(set) var columns: [ColumnDefinition] = []
    private var primaryKeyColumns: (columns: [String], conflict: Database.ConflictResolution?)?
    private var uniqueKeys: [(columns: [String], conflict: Database.ConflictResolution?)] = []
    private var foreignKeys: [(columns: [String], table: String, destination: [String]?,
                               onDelete: Database.ForeignKeyAction?, onUpdate: Database.ForeignKeyAction?, deferred: Bool)] = []
    private var checks: [SQLExpression] = []

    init(name: String, options: TableOptions) {
        self.name = name
        self.options = options
    }

    /// `id INTEGER PRIMARY KEY AUTOINCREMENT`: ids are never reused.
    ///
    /// See <https://www.sqlite.org/autoinc.html>.
    @discardableResult
    public func autoIncrementedPrimaryKey(_ name: String, onConflict conflict: Database.ConflictResolution? = nil) -> ColumnDefinition {
        column(name, .integer).primaryKey(onConflict: conflict, autoincrement: true)
    }

    /// A single-column primary key: `t.primaryKey("uuid", .text)`. The
    /// column is NOT NULL, unless it is an `INTEGER` rowid alias.
    @discardableResult
    public func primaryKey(_ name: String, _ type: Database.ColumnType, onConflict conflict: Database.ConflictResolution? = nil) -> ColumnDefinition {
        let column = column(name, type).primaryKey(onConflict: conflict)
        if type != .integer { column.notNull() }
        return column
    }

    /// A composite primary key: `t.primaryKey(["a", "b"])`.
    public func primaryKey(_ columns: [String], onConflict conflict: Database.ConflictResolution? = nil) {
        primaryKeyColumns = (columns, conflict)
    }

    /// A column.
    @discardableResult
    public func column(_ name: String, _ type: Database.ColumnType? = nil) -> ColumnDefinition {
        let column = ColumnDefinition(name: name, type: type)
        columns.append(column)
        return column
    }

    /// A column written in SQL: `t.column(sql: "name TEXT NOT NULL")`.
    public func column(sql: String) {
        columns.append(ColumnDefinition(verbatimSQL: sql))
    }

    /// `UNIQUE (a, b)`.
    public func uniqueKey(_ columns: [String], onConflict conflict: Database.ConflictResolution? = nil) {
        uniqueKeys.append((columns, conflict))
    }

    /// `FOREIGN KEY (columns) REFERENCES table(destination)`.
    public func foreignKey(
        _ columns: [String],
        references table: String,
        columns destination: [String]? = nil,
        onDelete: Database.ForeignKeyAction? = nil,
        onUpdate: Database.ForeignKeyAction? = nil,
        deferred: Bool = false)
    {
        foreignKeys.append((columns, table, destination, onDelete, onUpdate, deferred))
    }

    /// A foreign key column to the (single-column) primary key of a table,
    /// named `nameId`, indexed unless `indexed` is false:
    /// `t.belongsTo("team")` makes `teamId INTEGER REFERENCES team` and an
    /// index; `t.belongsTo("captain", inTable: "player")` makes
    /// `captainId INTEGER REFERENCES player`. Without `inTable`, the
    /// plural of the name is referenced when only it exists, as in GRDB
    /// (`t.belongsTo("parent")` references "parents").
    @discardableResult
    public func belongsTo(
        _ name: String,
        inTable table: String? = nil,
        onDelete: Database.ForeignKeyAction? = nil,
        onUpdate: Database.ForeignKeyAction? = nil,
        deferred: Bool = false,
        indexed: Bool = true) -> ColumnDefinition
    {
        let column = column(name + "Id", .integer)
            .references(table ?? name, onDelete: onDelete, onUpdate: onUpdate, deferred: deferred)
        column.infersReferencedTable = table == nil
        return indexed ? column.indexed() : column
    }

    /// `CHECK (condition)` on the table.
    public func check(_ condition: some SQLExpressible) {
        checks.append(condition.sqlExpression)
    }

    /// `CHECK (sql)` on the table.
    public func check(sql: String) {
        checks.append(SQL(sql: sql).sqlExpression)
    }

    // MARK: - SQL

    /// The `CREATE TABLE` statement, then the `CREATE INDEX` statements.
    func sql(_ db: Database) throws -> [String] {
        guard !columns.isEmpty else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "table \(name) has no column: define at least one")
        }
        let context = SQLGenerationContext.inliningValues(db)
        var definitions = try columns.map { try $0.sql(db) }
        if let primaryKeyColumns {
            definitions.append("PRIMARY KEY (" + quoted(primaryKeyColumns.columns) + ")" + conflictClause(primaryKeyColumns.conflict))
        }
        for uniqueKey in uniqueKeys {
            definitions.append("UNIQUE (" + quoted(uniqueKey.columns) + ")" + conflictClause(uniqueKey.conflict))
        }
        for foreignKey in foreignKeys {
            var clause = "FOREIGN KEY (" + quoted(foreignKey.columns) + ") REFERENCES " + foreignKey.table.quotedDatabaseIdentifier
            if let destination = foreignKey.destination { clause += "(" + quoted(destination) + ")" }
            if let action = foreignKey.onDelete { clause += " ON DELETE " + action.rawValue }
            if let action = foreignKey.onUpdate { clause += " ON UPDATE " + action.rawValue }
            if foreignKey.deferred { clause += " DEFERRABLE INITIALLY DEFERRED" }
            definitions.append(clause)
        }
        for check in checks {
            definitions.append("CHECK (" + (try check.sql(context)) + ")")
        }
        var create = "CREATE "
        if options.contains(.temporary) { create += "TEMPORARY " }
        create += "TABLE "
        if options.contains(.ifNotExists) { create += "IF NOT EXISTS " }
        create += name.quotedDatabaseIdentifier + " (" + definitions.joined(separator: ", ") + ")"
        if options.contains(.withoutRowID) { create += " WITHOUT ROWID" }

        return [create] + columns.filter(\.isIndexed).map {
            automaticIndexSQL(table: name, column: $0.name, ifNotExists: options.contains(.ifNotExists))
        }
    }
}

func quoted(_ columns: [String]) -> String {
    columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
}

/// The index of an `indexed()` column, named `table_on_column` as in GRDB.
func automaticIndexSQL(table: String, column: String, ifNotExists: Bool) -> String {
    "CREATE INDEX " + (ifNotExists ? "IF NOT EXISTS " : "") + (table + "_on_" + column).quotedDatabaseIdentifier
        + " ON " + table.quotedDatabaseIdentifier + "(" + column.quotedDatabaseIdentifier + ")"
}
