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
    /// A column, or the columns of a foreign key, in definition order.
    enum ColumnEntry {
        case column(ColumnDefinition)
        case foreignKey(ForeignKeyDefinition)
    }

    /// `FOREIGN KEY (columns) REFERENCES table(destination) …`.
    struct ForeignKeyConstraint {
        var columns: [String]
        var table: String
        var destination: [String]?
        var onDelete: Database.ForeignKeyAction?
        var onUpdate: Database.ForeignKeyAction?
        var deferred: Bool
    }

    let name: String
    let options: TableOptions
    private var entries: [ColumnEntry] = []
    private var primaryKeyColumns: (columns: [String], conflict: Database.ConflictResolution?)?
    private var uniqueKeys: [(columns: [String], conflict: Database.ConflictResolution?)] = []
    private var foreignKeys: [ForeignKeyConstraint] = []
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
        entries.append(.column(column))
        return column
    }

    /// A column written in SQL: `t.column(sql: "name TEXT NOT NULL")`.
    public func column(sql: String) {
        entries.append(.column(ColumnDefinition(verbatimSQL: sql)))
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
        foreignKeys.append(ForeignKeyConstraint(
            columns: columns, table: table, destination: destination, onDelete: onDelete, onUpdate: onUpdate, deferred: deferred))
    }

    /// A foreign key to the primary key of another table, or of this one:
    /// one column per key column, named after `name` and the key column, of
    /// the same type, indexed unless `indexed` is false. See
    /// ``ForeignKeyDefinition`` for how the referenced table is found.
    ///
    /// ```swift
    /// try db.create(table: "player") { t in
    ///     t.autoIncrementedPrimaryKey("id")
    ///     t.belongsTo("team", onDelete: .cascade)    // teamId INTEGER REFERENCES team(id), indexed
    ///     t.belongsTo("captain", inTable: "player")  // captainId INTEGER REFERENCES player(id)
    /// }
    /// ```
    @discardableResult
    public func belongsTo(
        _ name: String,
        inTable table: String? = nil,
        onDelete: Database.ForeignKeyAction? = nil,
        onUpdate: Database.ForeignKeyAction? = nil,
        deferred: Bool = false,
        indexed: Bool = true) -> ForeignKeyDefinition
    {
        let foreignKey = ForeignKeyDefinition(
            name: name, table: table, onDelete: onDelete, onUpdate: onUpdate, deferred: deferred, indexed: indexed)
        entries.append(.foreignKey(foreignKey))
        return foreignKey
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
        guard !entries.isEmpty else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "table \(name) has no column: define at least one")
        }
        let ifNotExists = options.contains(.ifNotExists)
        var columns: [ColumnDefinition] = []
        var foreignKeys = foreignKeys
        // Composite foreign keys are indexed first, then indexed columns, as GRDB does.
        var indexes: [String] = []
        for entry in entries {
            switch entry {
            case .column(let column):
                columns.append(column)
            case .foreignKey(let foreignKey):
                let generated = try foreignKey.generated(db, originTable: name, forwardPrimaryKey: forwardPrimaryKey)
                columns += generated.columns
                if let constraint = generated.constraint { foreignKeys.append(constraint) }
                if let indexedColumns = generated.compositeIndex {
                    indexes.append(indexSQL(
                        named: "index_" + name + "_on_" + indexedColumns.joined(separator: "_"), table: name,
                        columns: indexedColumns, unique: foreignKey.isUnique, ifNotExists: ifNotExists))
                }
            }
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
        if ifNotExists { create += "IF NOT EXISTS " }
        create += name.quotedDatabaseIdentifier + " (" + definitions.joined(separator: ", ") + ")"
        if options.contains(.withoutRowID) { create += " WITHOUT ROWID" }

        indexes += columns.filter(\.isIndexed).map {
            automaticIndexSQL(table: name, column: $0.name, ifNotExists: ifNotExists)
        }
        return [create] + indexes
    }

    /// The primary key of the table being defined, for foreign keys that
    /// refer to it: the composite key, or the primary key column, or nil
    /// columns for a hidden rowid.
    private var forwardPrimaryKey: PrimaryKeyDescriptor {
        let definedColumns = entries.compactMap { entry -> ColumnDefinition? in
            if case .column(let column) = entry { return column }
            return nil
        }
        if let primaryKeyColumns {
            return PrimaryKeyDescriptor(table: name, columns: primaryKeyColumns.columns.map { keyColumn in
                (keyColumn, definedColumns.first { $0.name.lowercased() == keyColumn.lowercased() }?.type)
            })
        }
        if let column = definedColumns.first(where: \.isPrimaryKey) {
            return PrimaryKeyDescriptor(table: name, columns: [(column.name, column.type)])
        }
        return PrimaryKeyDescriptor(table: name, columns: nil)
    }
}

func quoted(_ columns: [String]) -> String {
    columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
}

/// The index of an `indexed()` column, named `table_on_column` as in GRDB.
func automaticIndexSQL(table: String, column: String, ifNotExists: Bool) -> String {
    indexSQL(named: table + "_on_" + column, table: table, columns: [column], unique: false, ifNotExists: ifNotExists)
}

/// `CREATE [UNIQUE] INDEX [IF NOT EXISTS] "name" ON "table"("a", "b")`.
func indexSQL(named name: String, table: String, columns: [String], unique: Bool, ifNotExists: Bool) -> String {
    "CREATE " + (unique ? "UNIQUE " : "") + "INDEX " + (ifNotExists ? "IF NOT EXISTS " : "") + name.quotedDatabaseIdentifier
        + " ON " + table.quotedDatabaseIdentifier + "(" + quoted(columns) + ")"
}
