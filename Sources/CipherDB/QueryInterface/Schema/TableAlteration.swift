/// Changes to a table, given to ``Database/alter(table:body:)``.
///
/// ```swift
/// try db.alter(table: "player") { t in
///     t.add(column: "email", .text).indexed()
///     t.addColumn(sql: "bonus INTEGER NOT NULL DEFAULT 0")
/// }
/// ```
///
/// SQLite 3.15.2's `ALTER TABLE` can only add a column: renaming or
/// dropping one throws (see Docs/Records.md for the table copy that does
/// it).
///
/// See <https://www.sqlite.org/lang_altertable.html>.
public final class TableAlteration {
    private enum Alteration {
        case add(ColumnDefinition)
        case addColumnLiteral(SQL)
    }

    let name: String
    private var alterations: [Alteration] = []
    private var unsupported: String?

    init(name: String) {
        self.name = name
    }

    /// `ALTER TABLE … ADD COLUMN …`: `t.add(column: "email", .text)`.
    /// SQLite requires a default value for a NOT NULL column added to a
    /// table that has rows.
    @discardableResult
    public func add(column name: String, _ type: Database.ColumnType? = nil) -> ColumnDefinition {
        let column = ColumnDefinition(name: name, type: type)
        alterations.append(.add(column))
        return column
    }

    /// `ALTER TABLE … ADD COLUMN sql`: `t.addColumn(sql: "email TEXT")`.
    public func addColumn(sql: String) {
        addColumn(literal: SQL(sql: sql))
    }

    /// `ALTER TABLE … ADD COLUMN literal`, whose values are written as SQL
    /// literals: `t.addColumn(literal: "name TEXT DEFAULT \(defaultName)")`.
    public func addColumn(literal: SQL) {
        alterations.append(.addColumnLiteral(literal))
    }

    /// Not available on SQLite 3.15.2: throws when the alteration runs.
    public func rename(column name: String, to newName: String) {
        unsupported = unsupported ?? "cannot rename column \(name) of table \(self.name): SQLite 3.15.2 (SQLCipher 3.4.1) has no RENAME COLUMN; create a new table with the new column name, copy the rows with INSERT INTO … SELECT, drop the old table and rename the new one, in the same migration"
    }

    /// Not available on SQLite 3.15.2: throws when the alteration runs.
    public func drop(column name: String) {
        unsupported = unsupported ?? "cannot drop column \(name) of table \(self.name): SQLite 3.15.2 (SQLCipher 3.4.1) has no DROP COLUMN; create a new table without the column, copy the rows with INSERT INTO … SELECT, drop the old table and rename the new one, in the same migration"
    }

    /// The `ALTER TABLE` statements, each followed by the index of its
    /// column if it is ``ColumnDefinition/indexed()``.
    func sql(_ db: Database) throws -> [String] {
        if let unsupported {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: unsupported)
        }
        let prefix = "ALTER TABLE \(name.quotedDatabaseIdentifier) ADD COLUMN "
        var statements: [String] = []
        for alteration in alterations {
            switch alteration {
            case .add(let column):
                if column.generatedColumnConstraint != nil {
                    throw DatabaseError.unavailableInSQLCipher("generated columns", since: "3.31")
                }
                statements.append(prefix + (try column.sql(db, tableName: name) {
                    try db.primaryKey(name).columnInfos?.map(\.name)
                }))
                if let index = column.index(in: name, options: []) {
                    statements.append(try index.sql(db))
                }
            case .addColumnLiteral(let literal):
                statements.append(prefix + (try literal.sql(.inliningValues(db))))
            }
        }
        return statements
    }
}

// A mutable class, used by one alteration at a time.
@available(*, unavailable)
extension TableAlteration: Sendable {}
