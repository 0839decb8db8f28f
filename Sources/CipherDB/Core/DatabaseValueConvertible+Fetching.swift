// Fetching values of the leftmost column, decoded from `DatabaseValue`.
//
// ```swift
// let dates = try Date.fetchAll(db, sql: "SELECT createdAt FROM player")
// let date = try Date.fetchOne(db, Player.select(Column("createdAt")))
// ```
//
// `fetchOne` returns nil when there is no row, and when the value decodes
// as nil (NULL, except for `DatabaseValue`, which keeps `.null`). Types
// that are also ``StatementColumnConvertible`` use the methods of
// StatementColumnConvertible+Fetching.swift instead.

// MARK: - From a statement

extension DatabaseValueConvertible {
    /// A cursor over the values of the leftmost column of a statement.
    public static func fetchCursor(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws -> DatabaseValueCursor<Self> {
        try DatabaseValueCursor(statement: statement, arguments: arguments, adapter: adapter)
    }

    /// All values of the leftmost column of a statement.
    public static func fetchAll(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws -> [Self] {
        try Array(fetchCursor(statement, arguments: arguments, adapter: adapter))
    }

    /// The value of the leftmost column of the first row: nil if there is
    /// no row or the value is NULL.
    public static func fetchOne(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws -> Self? {
        let cursor = try DatabaseValueCursor<Self?>(statement: statement, arguments: arguments, adapter: adapter)
        defer { sqlite3ResetQuietly(statement) }
        return try cursor.next() ?? nil
    }
}

extension DatabaseValueConvertible where Self: Hashable {
    /// The set of the values of the leftmost column of a statement.
    public static func fetchSet(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws -> Set<Self> {
        try Set(fetchCursor(statement, arguments: arguments, adapter: adapter))
    }
}

// MARK: - From SQL

extension DatabaseValueConvertible {
    /// A cursor over the values of an SQL query.
    public static func fetchCursor(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments(), adapter: (any RowAdapter)? = nil) throws -> DatabaseValueCursor<Self> {
        try fetchCursor(db.cachedStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// All values of an SQL query.
    public static func fetchAll(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments(), adapter: (any RowAdapter)? = nil) throws -> [Self] {
        try fetchAll(db.cachedStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// The first value of an SQL query, nil if there is no row or the value is NULL.
    public static func fetchOne(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments(), adapter: (any RowAdapter)? = nil) throws -> Self? {
        try fetchOne(db.cachedStatement(sql: sql), arguments: arguments, adapter: adapter)
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
    /// The set of the values of an SQL query.
    public static func fetchSet(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments(), adapter: (any RowAdapter)? = nil) throws -> Set<Self> {
        try fetchSet(db.cachedStatement(sql: sql), arguments: arguments, adapter: adapter)
    }
}

// MARK: - From a request

extension DatabaseValueConvertible {
    /// A cursor over the values of the leftmost column of a request,
    /// whatever type it fetches.
    ///
    /// ```swift
    /// let names = try String.fetchCursor(db, Player.select(Column("name")))
    /// ```
    public static func fetchCursor(_ db: Database, _ request: some FetchRequest) throws -> DatabaseValueCursor<Self> {
        let request = try request.makePreparedRequest(db, forSingleResult: false)
        return try fetchCursor(request.statement, adapter: request.adapter)
    }

    /// All values of the leftmost column of a request.
    public static func fetchAll(_ db: Database, _ request: some FetchRequest) throws -> [Self] {
        let request = try request.makePreparedRequest(db, forSingleResult: false)
        return try fetchAll(request.statement, adapter: request.adapter)
    }

    /// The first value of the leftmost column of a request: nil if there is
    /// no row or the value is NULL.
    public static func fetchOne(_ db: Database, _ request: some FetchRequest) throws -> Self? {
        let request = try request.makePreparedRequest(db, forSingleResult: true)
        return try fetchOne(request.statement, adapter: request.adapter)
    }
}

extension DatabaseValueConvertible where Self: Hashable {
    /// The set of the values of the leftmost column of a request.
    public static func fetchSet(_ db: Database, _ request: some FetchRequest) throws -> Set<Self> {
        let request = try request.makePreparedRequest(db, forSingleResult: false)
        return try fetchSet(request.statement, adapter: request.adapter)
    }
}

extension FetchRequest where RowDecoder: DatabaseValueConvertible {
    public func fetchCursor(_ db: Database) throws -> DatabaseValueCursor<RowDecoder> {
        try RowDecoder.fetchCursor(db, self)
    }

    public func fetchAll(_ db: Database) throws -> [RowDecoder] {
        try RowDecoder.fetchAll(db, self)
    }

    public func fetchOne(_ db: Database) throws -> RowDecoder? {
        try RowDecoder.fetchOne(db, self)
    }
}

extension FetchRequest where RowDecoder: DatabaseValueConvertible & Hashable {
    public func fetchSet(_ db: Database) throws -> Set<RowDecoder> {
        try RowDecoder.fetchSet(db, self)
    }
}
