/// A column of a table being created or altered.
///
/// ```swift
/// try db.create(table: "player") { t in
///     t.autoIncrementedPrimaryKey("id")
///     t.column("name", .text).notNull().unique(onConflict: .replace)
///     t.column("score", .integer).notNull().defaults(to: 0).check { $0 >= 0 }
///     t.column("teamId", .integer).references("team", onDelete: .cascade).indexed()
/// }
/// ```
///
/// See <https://www.sqlite.org/syntax/column-def.html>.
public final class ColumnDefinition {
    let name: String
    let type: Database.ColumnType?
    private var primaryKey: (conflict: Database.ConflictResolution?, autoincrement: Bool)?
    private var notNullConflict: Database.ConflictResolution??
    private var uniqueConflict: Database.ConflictResolution??
    private var checks: [SQLExpression] = []
    private var defaultExpression: SQLExpression?
    private var collationName: String?
    private var reference: (table: String, column: String?, onDelete: Database.ForeignKeyAction?,
                            onUpdate: Database.ForeignKeyAction?, deferred: Bool)?
    /// Whether the referenced table is the one named, or else its plural
    /// (`t.belongsTo("parent")` references "parents" when "parent" does not
    /// exist).
    var infersReferencedTable = false
    private(set) var isIndexed = false
    /// A column definition written in SQL, used as is.
    private var verbatimSQL: String?

    init(name: String, type: Database.ColumnType?) {
        self.name = name
        self.type = type
    }

    init(verbatimSQL: String) {
        self.name = ""
        self.type = nil
        self.verbatimSQL = verbatimSQL
    }

    /// `PRIMARY KEY [AUTOINCREMENT]`.
    @discardableResult
    public func primaryKey(onConflict conflict: Database.ConflictResolution? = nil, autoincrement: Bool = false) -> Self {
        primaryKey = (conflict, autoincrement)
        return self
    }

    /// `NOT NULL`.
    @discardableResult
    public func notNull(onConflict conflict: Database.ConflictResolution? = nil) -> Self {
        notNullConflict = .some(conflict)
        return self
    }

    /// `UNIQUE`.
    @discardableResult
    public func unique(onConflict conflict: Database.ConflictResolution? = nil) -> Self {
        uniqueConflict = .some(conflict)
        return self
    }

    /// `CHECK (condition)`: `t.column("score", .integer).check { $0 >= 0 }`.
    @discardableResult
    public func check(_ condition: (Column) -> any SQLExpressible) -> Self {
        checks.append(condition(Column(name)).sqlExpression)
        return self
    }

    /// `CHECK (sql)`.
    @discardableResult
    public func check(sql: String) -> Self {
        checks.append(SQL(sql: sql).sqlExpression)
        return self
    }

    /// `DEFAULT value`.
    @discardableResult
    public func defaults(to value: some DatabaseValueConvertible) -> Self {
        defaultExpression = value.sqlExpression
        return self
    }

    /// `DEFAULT (sql)`: `t.column("createdAt", .datetime).defaults(sql: "CURRENT_TIMESTAMP")`.
    @discardableResult
    public func defaults(sql: String) -> Self {
        defaultExpression = SQL(sql: sql).sqlExpression
        return self
    }

    /// `COLLATE name`, for SQLite's built-in collations.
    @discardableResult
    public func collate(_ collation: Database.CollationName) -> Self {
        collationName = collation.rawValue
        return self
    }

    /// `COLLATE name`, for CipherDB's and custom collations (registered on
    /// every connection that uses the table).
    @discardableResult
    public func collate(_ collation: DatabaseCollation) -> Self {
        collationName = collation.name
        return self
    }

    /// `REFERENCES table(column) ON DELETE … ON UPDATE …`. Without a column,
    /// the primary key of the referenced table.
    @discardableResult
    public func references(
        _ table: String,
        column: String? = nil,
        onDelete: Database.ForeignKeyAction? = nil,
        onUpdate: Database.ForeignKeyAction? = nil,
        deferred: Bool = false) -> Self
    {
        reference = (table, column, onDelete, onUpdate, deferred)
        return self
    }

    /// Creates an index on the column (named `tableName_on_columnName`).
    @discardableResult
    public func indexed() -> Self {
        isIndexed = true
        return self
    }

    func sql(_ db: Database) throws -> String {
        if let verbatimSQL { return verbatimSQL }
        let context = SQLGenerationContext.inliningValues(db)
        var parts = [name.quotedDatabaseIdentifier]
        if let type, !type.rawValue.isEmpty { parts.append(type.rawValue) }
        if let primaryKey {
            parts.append("PRIMARY KEY" + conflictClause(primaryKey.conflict) + (primaryKey.autoincrement ? " AUTOINCREMENT" : ""))
        }
        if let notNullConflict { parts.append("NOT NULL" + conflictClause(notNullConflict)) }
        if let uniqueConflict { parts.append("UNIQUE" + conflictClause(uniqueConflict)) }
        for check in checks { parts.append("CHECK (" + (try check.sql(context)) + ")") }
        if let defaultExpression { parts.append("DEFAULT " + (try defaultExpression.defaultSQL(context))) }
        if let collationName { parts.append("COLLATE " + collationName) }
        if let reference {
            var table = reference.table
            if infersReferencedTable, try !db.tableExists(table), try db.tableExists(table.pluralized) {
                table = table.pluralized
            }
            var clause = "REFERENCES " + table.quotedDatabaseIdentifier
            if let column = reference.column { clause += "(" + column.quotedDatabaseIdentifier + ")" }
            if let action = reference.onDelete { clause += " ON DELETE " + action.rawValue }
            if let action = reference.onUpdate { clause += " ON UPDATE " + action.rawValue }
            if reference.deferred { clause += " DEFERRABLE INITIALLY DEFERRED" }
            parts.append(clause)
        }
        return parts.joined(separator: " ")
    }
}

func conflictClause(_ conflict: Database.ConflictResolution?) -> String {
    conflict.map { " ON CONFLICT " + $0.rawValue } ?? ""
}

extension SQLExpression {
    /// A `DEFAULT` clause value: literals as they are, expressions in
    /// parentheses, as SQLite requires.
    fileprivate func defaultSQL(_ context: SQLGenerationContext) throws -> String {
        if case .value = impl { return try sql(context) }
        return "(" + (try sql(context)) + ")"
    }
}
