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
    /// A column of a primary or unique key.
    enum KeyComponent {
        case columnName(String)
        case columnDefinition(ColumnDefinition)
        case foreignKeyDefinition(ForeignKeyDefinition)
    }

    /// `PRIMARY KEY (…)` or `UNIQUE (…)`.
    struct KeyConstraint {
        var components: [KeyComponent]
        var conflictResolution: Database.ConflictResolution?
    }

    /// What defines columns, and foreign keys, in definition order.
    enum ColumnComponent {
        case columnDefinition(ColumnDefinition)
        case columnLiteral(SQL)
        case foreignKeyDefinition(ForeignKeyDefinition)
        case foreignKeyConstraint(ForeignKeyConstraint)
    }

    /// `FOREIGN KEY (columns) REFERENCES table(destination) …`: without
    /// destination columns, the primary key of the referenced table.
    struct ForeignKeyConstraint {
        var columns: [String]
        var destinationTable: String
        var destinationColumns: [String]?
        var deleteAction: Database.ForeignKeyAction?
        var updateAction: Database.ForeignKeyAction?
        var isDeferred: Bool
    }

    let name: String
    let options: TableOptions
    private(set) var columnComponents: [ColumnComponent] = []
    private(set) var primaryKeyConstraint: KeyConstraint?
    private(set) var uniqueKeyConstraints: [KeyConstraint] = []
    private(set) var checkConstraints: [SQLExpression] = []
    private(set) var literalConstraints: [SQL] = []
    /// A misuse of the definition, thrown when the table is created.
    private(set) var misuse: String?
    private var inPrimaryKeyBody = false

    init(name: String, options: TableOptions) {
        self.name = name
        self.options = options
    }

    /// `id INTEGER PRIMARY KEY AUTOINCREMENT`: ids are never reused.
    ///
    /// ```swift
    /// t.autoIncrementedPrimaryKey("id")
    /// ```
    ///
    /// See <https://www.sqlite.org/autoinc.html>.
    @discardableResult
    public func autoIncrementedPrimaryKey(_ name: String, onConflict conflictResolution: Database.ConflictResolution? = nil) -> ColumnDefinition {
        column(name, .integer).primaryKey(onConflict: conflictResolution, autoincrement: true)
    }

    /// A single-column primary key: `t.primaryKey("uuid", .text)`. The
    /// column is NOT NULL, unless it is an `INTEGER` rowid alias.
    @discardableResult
    public func primaryKey(_ name: String, _ type: Database.ColumnType, onConflict conflictResolution: Database.ConflictResolution? = nil) -> ColumnDefinition {
        let column = column(name, type).primaryKey(onConflict: conflictResolution)
        if type != .integer { column.notNull() }
        return column
    }

    /// The primary key made of the columns and foreign keys that `body`
    /// defines, all NOT NULL.
    ///
    /// ```swift
    /// try db.create(table: "passport") { t in
    ///     t.primaryKey {
    ///         t.belongsTo("citizen")
    ///         t.column("countryCode", .text)
    ///     }
    ///     t.column("issueDate", .date).notNull()
    /// }
    /// ```
    public func primaryKey(onConflict conflictResolution: Database.ConflictResolution? = nil, body: () throws -> Void) rethrows {
        guard primaryKeyConstraint == nil else {
            misuse = misuse ?? "table \(name) cannot have several primary keys"
            return
        }
        primaryKeyConstraint = KeyConstraint(components: [], conflictResolution: conflictResolution)
        let wasInPrimaryKeyBody = inPrimaryKeyBody
        inPrimaryKeyBody = true
        defer { inPrimaryKeyBody = wasInPrimaryKeyBody }
        try body()
    }

    /// A composite primary key on columns defined elsewhere:
    /// `t.primaryKey(["a", "b"])`. Make the columns NOT NULL, or SQLite
    /// accepts NULL in them.
    public func primaryKey(_ columns: [String], onConflict conflictResolution: Database.ConflictResolution? = nil) {
        guard primaryKeyConstraint == nil else {
            misuse = misuse ?? "table \(name) cannot have several primary keys"
            return
        }
        primaryKeyConstraint = KeyConstraint(components: columns.map { .columnName($0) }, conflictResolution: conflictResolution)
    }

    /// A column: `t.column("name", .text)`, or `t.column("value")` for no
    /// declared type.
    @discardableResult
    public func column(_ name: String, _ type: Database.ColumnType? = nil) -> ColumnDefinition {
        let column = ColumnDefinition(name: name, type: type)
        columnComponents.append(.columnDefinition(column))
        if inPrimaryKeyBody {
            column.notNull()
            primaryKeyConstraint?.components.append(.columnDefinition(column))
        }
        return column
    }

    /// A column written in SQL: `t.column(sql: "name TEXT NOT NULL")`.
    public func column(sql: String) {
        column(literal: SQL(sql: sql))
    }

    /// A column written in an SQL literal, whose values are written as SQL
    /// literals: `t.column(literal: "name TEXT DEFAULT \(defaultName)")`.
    public func column(literal: SQL) {
        if inPrimaryKeyBody {
            misuse = misuse ?? "the primary key columns of table \(name) cannot be written in SQL"
        }
        columnComponents.append(.columnLiteral(literal))
    }

    /// `UNIQUE (a, b)`: `t.uniqueKey(["latitude", "longitude"])`.
    public func uniqueKey(_ columns: [String], onConflict conflictResolution: Database.ConflictResolution? = nil) {
        uniqueKeyConstraints.append(KeyConstraint(components: columns.map { .columnName($0) }, conflictResolution: conflictResolution))
    }

    /// `FOREIGN KEY (columns) REFERENCES table(destination)`; without
    /// destination columns, the primary key of the referenced table.
    ///
    /// ```swift
    /// t.foreignKey(["citizenId", "countryCode"], references: "citizenship", onDelete: .cascade)
    /// ```
    public func foreignKey(
        _ columns: [String],
        references table: String,
        columns destinationColumns: [String]? = nil,
        onDelete deleteAction: Database.ForeignKeyAction? = nil,
        onUpdate updateAction: Database.ForeignKeyAction? = nil,
        deferred isDeferred: Bool = false)
    {
        columnComponents.append(.foreignKeyConstraint(ForeignKeyConstraint(
            columns: columns, destinationTable: table, destinationColumns: destinationColumns,
            deleteAction: deleteAction, updateAction: updateAction, isDeferred: isDeferred)))
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
        onDelete deleteAction: Database.ForeignKeyAction? = nil,
        onUpdate updateAction: Database.ForeignKeyAction? = nil,
        deferred isDeferred: Bool = false,
        indexed: Bool = true) -> ForeignKeyDefinition
    {
        let foreignKey = ForeignKeyDefinition(
            name: name, table: table, deleteAction: deleteAction, updateAction: updateAction,
            isDeferred: isDeferred, isIndexed: indexed && !inPrimaryKeyBody)
        columnComponents.append(.foreignKeyDefinition(foreignKey))
        if inPrimaryKeyBody {
            foreignKey.notNull()
            primaryKeyConstraint?.components.append(.foreignKeyDefinition(foreignKey))
        }
        return foreignKey
    }

    /// `CHECK (value)` on the table, for a value that is not an
    /// expression: `t.check("a < b")` checks the string `'a < b'`, which is
    /// rarely what is meant.
    @available(*, deprecated, message: "Use check(sql:) for SQL, or an expression of columns")
    public func check(_ condition: some SQLExpressible) {
        checkConstraints.append(condition.sqlExpression)
    }

    /// `CHECK (condition)` on the table:
    /// `t.check(Column("personalPhone") != nil || Column("workPhone") != nil)`.
    public func check(_ condition: some SQLSpecificExpressible) {
        checkConstraints.append(condition.sqlExpression)
    }

    /// `CHECK (sql)` on the table: `t.check(sql: "a + b < 10")`.
    public func check(sql: String) {
        checkConstraints.append(SQL(sql: sql).sqlExpression)
    }

    /// A table constraint written in SQL: `t.constraint(sql: "CHECK (score >= 0)")`.
    public func constraint(sql: String) {
        literalConstraints.append(SQL(sql: sql))
    }

    /// A table constraint written in an SQL literal, whose values are
    /// written as SQL literals: `t.constraint(literal: "CHECK (score >= \(minScore))")`.
    public func constraint(literal: SQL) {
        literalConstraints.append(literal)
    }
}

// A mutable class, used by one definition at a time.
@available(*, unavailable)
extension TableDefinition: Sendable {}
