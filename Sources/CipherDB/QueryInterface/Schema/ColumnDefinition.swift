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
    /// An index on the column: a plain one, or a `UNIQUE` constraint.
    enum Indexing {
        case index
        case unique(Database.ConflictResolution)
    }

    /// `REFERENCES table(column) …`: without a column, the primary key of
    /// the referenced table.
    struct ForeignKeyConstraint {
        var destinationTable: String
        var destinationColumn: String?
        var deleteAction: Database.ForeignKeyAction?
        var updateAction: Database.ForeignKeyAction?
        var isDeferred: Bool
    }

    /// Whether a generated column is computed when read, or stored.
    ///
    /// ```swift
    /// t.column("total", .integer).generatedAs(sql: "score + bonus", .stored)
    /// ```
    ///
    /// See <https://sqlite.org/gencol.html>.
    public enum GeneratedColumnQualification: Sendable {
        /// `VIRTUAL`: computed when the column is read.
        case virtual
        /// `STORED`: computed when the row is written, and stored.
        case stored
    }

    /// `GENERATED ALWAYS AS (expression) VIRTUAL|STORED`.
    struct GeneratedColumnConstraint {
        var expression: SQLExpression
        var qualification: GeneratedColumnQualification
    }

    let name: String
    let type: Database.ColumnType?
    var primaryKey: (conflictResolution: Database.ConflictResolution?, autoincrement: Bool)?
    var indexing: Indexing?
    /// `.abort`, SQLite's default, writes a plain `NOT NULL`.
    var notNullConflictResolution: Database.ConflictResolution?
    var checkConstraints: [SQLExpression] = []
    var foreignKeyConstraints: [ForeignKeyConstraint] = []
    var defaultExpression: SQLExpression?
    var collationName: String?
    var generatedColumnConstraint: GeneratedColumnConstraint?

    init(name: String, type: Database.ColumnType?) {
        self.name = name
        self.type = type
    }

    /// `PRIMARY KEY [AUTOINCREMENT]`.
    ///
    /// ```swift
    /// t.column("id", .integer).primaryKey(autoincrement: true)
    /// ```
    @discardableResult
    public func primaryKey(onConflict conflictResolution: Database.ConflictResolution? = nil, autoincrement: Bool = false) -> Self {
        primaryKey = (conflictResolution, autoincrement)
        return self
    }

    /// `NOT NULL`, with an optional conflict clause.
    ///
    /// ```swift
    /// t.column("name", .text).notNull(onConflict: .fail)
    /// ```
    @discardableResult
    public func notNull(onConflict conflictResolution: Database.ConflictResolution? = nil) -> Self {
        notNullConflictResolution = conflictResolution ?? .abort
        return self
    }

    /// `UNIQUE`, with an optional conflict clause. The column is then not
    /// given an index by ``indexed()``: the constraint has one.
    ///
    /// ```swift
    /// t.column("email", .text).unique(onConflict: .replace)
    /// ```
    @discardableResult
    public func unique(onConflict conflictResolution: Database.ConflictResolution? = nil) -> Self {
        indexing = .unique(conflictResolution ?? .abort)
        return self
    }

    /// Creates an index on the column, named `table_on_column`, unless the
    /// column is ``unique(onConflict:)``.
    ///
    /// ```swift
    /// t.column("email", .text).indexed() // CREATE INDEX "player_on_email" ON "player"("email")
    /// ```
    @discardableResult
    public func indexed() -> Self {
        if indexing == nil { indexing = .index }
        return self
    }

    /// `CHECK (condition)`: `t.column("score", .integer).check { $0 >= 0 }`.
    @discardableResult
    public func check(_ condition: (Column) -> any SQLExpressible) -> Self {
        checkConstraints.append(condition(Column(name)).sqlExpression)
        return self
    }

    /// `CHECK (sql)`: `t.column("score", .integer).check(sql: "score >= 0")`.
    @discardableResult
    public func check(sql: String) -> Self {
        checkConstraints.append(SQL(sql: sql).sqlExpression)
        return self
    }

    /// `DEFAULT value`, written as an SQL literal.
    ///
    /// ```swift
    /// t.column("name", .text).defaults(to: "Anonymous") // DEFAULT 'Anonymous'
    /// ```
    @discardableResult
    public func defaults(to value: some DatabaseValueConvertible) -> Self {
        defaultExpression = value.sqlExpression
        return self
    }

    /// `DEFAULT sql`: `t.column("createdAt", .datetime).defaults(sql: "CURRENT_TIMESTAMP")`.
    /// SQLite wants an expression other than a literal in parentheses:
    /// `defaults(sql: "(1 + 1)")`.
    @discardableResult
    public func defaults(sql: String) -> Self {
        defaultExpression = SQL(sql: sql).sqlExpression
        return self
    }

    /// `COLLATE name`, for SQLite's built-in collations:
    /// `t.column("name", .text).collate(.nocase)`.
    @discardableResult
    public func collate(_ collation: Database.CollationName) -> Self {
        collationName = collation.rawValue
        return self
    }

    /// `COLLATE name`, for CipherDB's and custom collations (registered on
    /// every connection that uses the table):
    /// `t.column("name", .text).collate(.localizedCaseInsensitiveCompare)`.
    @discardableResult
    public func collate(_ collation: DatabaseCollation) -> Self {
        collationName = collation.name
        return self
    }

    /// `GENERATED ALWAYS AS (sql)`. Generated columns need SQLite 3.31:
    /// SQLCipher 3.4.1 (SQLite 3.15.2) cannot create them, and creating or
    /// altering a table with one throws.
    ///
    /// ```swift
    /// t.column("total", .integer).generatedAs(sql: "score + bonus")
    /// ```
    ///
    /// See <https://sqlite.org/gencol.html>.
    @discardableResult
    public func generatedAs(sql: String, _ qualification: GeneratedColumnQualification = .virtual) -> Self {
        generatedAs(SQL(sql: sql), qualification)
    }

    /// `GENERATED ALWAYS AS (expression)`. Generated columns need SQLite
    /// 3.31: SQLCipher 3.4.1 (SQLite 3.15.2) cannot create them, and
    /// creating or altering a table with one throws.
    ///
    /// ```swift
    /// t.column("total", .integer).generatedAs(Column("score") + Column("bonus"), .stored)
    /// ```
    @discardableResult
    public func generatedAs(_ expression: some SQLExpressible, _ qualification: GeneratedColumnQualification = .virtual) -> Self {
        generatedColumnConstraint = GeneratedColumnConstraint(expression: expression.sqlExpression, qualification: qualification)
        return self
    }

    /// `REFERENCES table(column) ON DELETE … ON UPDATE …`. Without a column,
    /// the primary key of the referenced table (`rowid` for a table without
    /// one). A column can reference several tables.
    ///
    /// ```swift
    /// t.column("teamId", .integer).references("team", onDelete: .cascade)
    /// ```
    @discardableResult
    public func references(
        _ table: String,
        column: String? = nil,
        onDelete deleteAction: Database.ForeignKeyAction? = nil,
        onUpdate updateAction: Database.ForeignKeyAction? = nil,
        deferred isDeferred: Bool = false) -> Self
    {
        foreignKeyConstraints.append(ForeignKeyConstraint(
            destinationTable: table, destinationColumn: column,
            deleteAction: deleteAction, updateAction: updateAction, isDeferred: isDeferred))
        return self
    }
}

// A mutable class, used by one definition at a time.
@available(*, unavailable)
extension ColumnDefinition: Sendable {}
