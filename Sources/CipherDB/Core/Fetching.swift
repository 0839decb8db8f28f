// Fetching rows and values from SQL.
//
// ```swift
// let rows = try Row.fetchAll(db, sql: "SELECT * FROM player")
// let names = try String.fetchAll(db, sql: "SELECT name FROM player")
// let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
// ```
//
// `fetchCursor` iterates lazily; `fetchAll`, `fetchSet` and `fetchOne` load
// values. `fetchOne` returns nil when there is no row, and, for values,
// when the value decodes as nil (`DatabaseValue.fetchOne` returns `.null`).

// MARK: - Row

extension Row {
    /// A cursor over the rows of a statement.
    public static func fetchCursor(_ statement: Statement, arguments: StatementArguments? = nil) throws -> RowCursor {
        try RowCursor(statement: statement, arguments: arguments)
    }

    /// All rows of a statement.
    public static func fetchAll(_ statement: Statement, arguments: StatementArguments? = nil) throws -> [Row] {
        try Array(fetchCursor(statement, arguments: arguments).map { $0.copy() })
    }

    /// The set of the rows of a statement.
    public static func fetchSet(_ statement: Statement, arguments: StatementArguments? = nil) throws -> Set<Row> {
        try Set(fetchCursor(statement, arguments: arguments).map { $0.copy() })
    }

    /// The first row of a statement.
    public static func fetchOne(_ statement: Statement, arguments: StatementArguments? = nil) throws -> Row? {
        let cursor = try fetchCursor(statement, arguments: arguments)
        defer { sqlite3ResetQuietly(statement) }
        return try cursor.next()?.copy()
    }

    /// A cursor over the rows of an SQL query.
    public static func fetchCursor(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments()) throws -> RowCursor {
        try fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
    }

    /// All rows of an SQL query.
    public static func fetchAll(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments()) throws -> [Row] {
        try fetchAll(db.cachedStatement(sql: sql), arguments: arguments)
    }

    /// The set of the rows of an SQL query.
    public static func fetchSet(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments()) throws -> Set<Row> {
        try fetchSet(db.cachedStatement(sql: sql), arguments: arguments)
    }

    /// The first row of an SQL query.
    public static func fetchOne(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments()) throws -> Row? {
        try fetchOne(db.cachedStatement(sql: sql), arguments: arguments)
    }

    /// All rows of an SQL literal: `try Row.fetchAll(db, literal: "SELECT * FROM player WHERE id = \(id)")`.
    public static func fetchAll(_ db: Database, literal: SQL) throws -> [Row] {
        let (sql, arguments) = try literal.build(db)
        return try fetchAll(db, sql: sql, arguments: arguments)
    }

    /// The first row of an SQL literal.
    public static func fetchOne(_ db: Database, literal: SQL) throws -> Row? {
        let (sql, arguments) = try literal.build(db)
        return try fetchOne(db, sql: sql, arguments: arguments)
    }
}

/// Releases the locks of a statement whose cursor was not exhausted.
func sqlite3ResetQuietly(_ statement: Statement) {
    try? statement.reset()
}

// MARK: - DatabaseValueConvertible

extension DatabaseValueConvertible {
    /// A cursor over the values of the leftmost column of a statement.
    public static func fetchCursor(_ statement: Statement, arguments: StatementArguments? = nil) throws -> DatabaseValueCursor<Self> {
        try DatabaseValueCursor(statement: statement, arguments: arguments)
    }

    /// All values of the leftmost column of a statement.
    public static func fetchAll(_ statement: Statement, arguments: StatementArguments? = nil) throws -> [Self] {
        try Array(fetchCursor(statement, arguments: arguments))
    }

    /// The value of the leftmost column of the first row: nil if there is
    /// no row or the value is NULL.
    public static func fetchOne(_ statement: Statement, arguments: StatementArguments? = nil) throws -> Self? {
        let cursor = try DatabaseValueCursor<Self?>(statement: statement, arguments: arguments)
        defer { sqlite3ResetQuietly(statement) }
        return try cursor.next() ?? nil
    }

    /// A cursor over the values of an SQL query.
    public static func fetchCursor(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments()) throws -> DatabaseValueCursor<Self> {
        try fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
    }

    /// All values of an SQL query.
    public static func fetchAll(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments()) throws -> [Self] {
        try fetchAll(db.cachedStatement(sql: sql), arguments: arguments)
    }

    /// The first value of an SQL query, nil if there is no row or the value is NULL.
    public static func fetchOne(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments()) throws -> Self? {
        try fetchOne(db.cachedStatement(sql: sql), arguments: arguments)
    }

    /// All values of an SQL literal.
    public static func fetchAll(_ db: Database, literal: SQL) throws -> [Self] {
        let (sql, arguments) = try literal.build(db)
        return try fetchAll(db, sql: sql, arguments: arguments)
    }

    /// The first value of an SQL literal.
    public static func fetchOne(_ db: Database, literal: SQL) throws -> Self? {
        let (sql, arguments) = try literal.build(db)
        return try fetchOne(db, sql: sql, arguments: arguments)
    }
}

extension DatabaseValueConvertible where Self: Hashable {
    /// The set of the values of the leftmost column of a statement.
    public static func fetchSet(_ statement: Statement, arguments: StatementArguments? = nil) throws -> Set<Self> {
        try Set(fetchCursor(statement, arguments: arguments))
    }

    /// The set of the values of an SQL query.
    public static func fetchSet(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments()) throws -> Set<Self> {
        try fetchSet(db.cachedStatement(sql: sql), arguments: arguments)
    }
}

// MARK: - Fast path

extension DatabaseValueConvertible where Self: StatementColumnConvertible {
    /// A cursor over the values of the leftmost column of a statement.
    public static func fetchCursor(_ statement: Statement, arguments: StatementArguments? = nil) throws -> FastDatabaseValueCursor<Self> {
        try FastDatabaseValueCursor(statement: statement, arguments: arguments)
    }

    /// All values of the leftmost column of a statement.
    public static func fetchAll(_ statement: Statement, arguments: StatementArguments? = nil) throws -> [Self] {
        try Array(fetchCursor(statement, arguments: arguments))
    }

    /// The first value of the leftmost column, nil if there is no row or
    /// the value is NULL.
    public static func fetchOne(_ statement: Statement, arguments: StatementArguments? = nil) throws -> Self? {
        let cursor = try FastDatabaseValueCursor<Self?>(statement: statement, arguments: arguments)
        defer { sqlite3ResetQuietly(statement) }
        return try cursor.next() ?? nil
    }

    /// A cursor over the values of an SQL query.
    public static func fetchCursor(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments()) throws -> FastDatabaseValueCursor<Self> {
        try fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
    }

    /// All values of an SQL query.
    public static func fetchAll(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments()) throws -> [Self] {
        try fetchAll(db.cachedStatement(sql: sql), arguments: arguments)
    }

    /// The first value of an SQL query, nil if there is no row or the value is NULL.
    public static func fetchOne(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments()) throws -> Self? {
        try fetchOne(db.cachedStatement(sql: sql), arguments: arguments)
    }
}

extension DatabaseValueConvertible where Self: StatementColumnConvertible & Hashable {
    /// The set of the values of the leftmost column of a statement.
    public static func fetchSet(_ statement: Statement, arguments: StatementArguments? = nil) throws -> Set<Self> {
        try Set(fetchCursor(statement, arguments: arguments))
    }

    /// The set of the values of an SQL query.
    public static func fetchSet(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments()) throws -> Set<Self> {
        try fetchSet(db.cachedStatement(sql: sql), arguments: arguments)
    }
}
