// Fetching rows.
//
// ```swift
// let rows = try Row.fetchAll(db, sql: "SELECT * FROM player")
// let row = try Row.fetchOne(db, Player.filter(id: 1))
// ```
//
// `fetchCursor` iterates lazily, reusing one row; `fetchAll`, `fetchSet`
// and `fetchOne` return copies. `fetchOne` returns nil when there is no row.

// MARK: - From a statement

extension Row {
    /// A cursor over the rows of a statement.
    public static func fetchCursor(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws -> RowCursor {
        try RowCursor(statement: statement, arguments: arguments, adapter: adapter)
    }

    /// All rows of a statement.
    public static func fetchAll(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws -> [Row] {
        try Array(fetchCursor(statement, arguments: arguments, adapter: adapter).map { $0.copy() })
    }

    /// The set of the rows of a statement.
    public static func fetchSet(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws -> Set<Row> {
        try Set(fetchCursor(statement, arguments: arguments, adapter: adapter).map { $0.copy() })
    }

    /// The first row of a statement.
    public static func fetchOne(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws -> Row? {
        let cursor = try fetchCursor(statement, arguments: arguments, adapter: adapter)
        defer { sqlite3ResetQuietly(statement) }
        return try cursor.next()?.copy()
    }
}

// MARK: - From SQL

extension Row {
    /// A cursor over the rows of an SQL query.
    public static func fetchCursor(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments(), adapter: (any RowAdapter)? = nil) throws -> RowCursor {
        try fetchCursor(db.cachedStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// All rows of an SQL query.
    public static func fetchAll(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments(), adapter: (any RowAdapter)? = nil) throws -> [Row] {
        try fetchAll(db.cachedStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// The set of the rows of an SQL query.
    public static func fetchSet(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments(), adapter: (any RowAdapter)? = nil) throws -> Set<Row> {
        try fetchSet(db.cachedStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// The first row of an SQL query.
    public static func fetchOne(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments(), adapter: (any RowAdapter)? = nil) throws -> Row? {
        try fetchOne(db.cachedStatement(sql: sql), arguments: arguments, adapter: adapter)
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

// MARK: - From a request

extension Row {
    /// A cursor over the rows of a request, whatever type it fetches.
    ///
    /// ```swift
    /// let rows = try Row.fetchCursor(db, Player.all())
    /// ```
    public static func fetchCursor(_ db: Database, _ request: some FetchRequest) throws -> RowCursor {
        let request = try request.makePreparedRequest(db, forSingleResult: false)
        precondition(request.supplementaryFetch == nil, "a request that fetches associated rows can not give a cursor")
        return try fetchCursor(request.statement, adapter: request.adapter)
    }

    /// All rows of a request.
    public static func fetchAll(_ db: Database, _ request: some FetchRequest) throws -> [Row] {
        let request = try request.makePreparedRequest(db, forSingleResult: false)
        let rows = try fetchAll(request.statement, adapter: request.adapter)
        try request.supplementaryFetch?(db, rows, nil)
        return rows
    }

    /// The set of the rows of a request.
    public static func fetchSet(_ db: Database, _ request: some FetchRequest) throws -> Set<Row> {
        let request = try request.makePreparedRequest(db, forSingleResult: false)
        guard let supplementaryFetch = request.supplementaryFetch else {
            return try fetchSet(request.statement, adapter: request.adapter)
        }
        let rows = try fetchAll(request.statement, adapter: request.adapter)
        try supplementaryFetch(db, rows, nil)
        return Set(rows)
    }

    /// The first row of a request.
    public static func fetchOne(_ db: Database, _ request: some FetchRequest) throws -> Row? {
        let request = try request.makePreparedRequest(db, forSingleResult: true)
        guard let row = try fetchOne(request.statement, adapter: request.adapter) else { return nil }
        try request.supplementaryFetch?(db, [row], nil)
        return row
    }
}

extension FetchRequest where RowDecoder == Row {
    public func fetchCursor(_ db: Database) throws -> RowCursor {
        try Row.fetchCursor(db, self)
    }

    public func fetchAll(_ db: Database) throws -> [Row] {
        try Row.fetchAll(db, self)
    }

    public func fetchSet(_ db: Database) throws -> Set<Row> {
        try Row.fetchSet(db, self)
    }

    public func fetchOne(_ db: Database) throws -> Row? {
        try Row.fetchOne(db, self)
    }
}

/// Releases the locks of a statement whose cursor was not exhausted.
func sqlite3ResetQuietly(_ statement: Statement) {
    try? statement.reset()
}
