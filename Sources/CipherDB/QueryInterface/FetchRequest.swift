/// A request that fetches values, rows or records of type `RowDecoder`.
///
/// ```swift
/// let request: some FetchRequest<Player> = Player.filter(Column("score") > 1000)
/// let players = try request.fetchAll(db)
/// let count = try request.fetchCount(db)
/// ```
public protocol FetchRequest<RowDecoder>: SQLSubqueryable {
    /// The type of the fetched values.
    associatedtype RowDecoder

    /// The prepared statement of the request, with its arguments bound.
    /// With `forSingleResult`, the request may add `LIMIT 1`.
    func makePreparedRequest(_ db: Database, forSingleResult singleResult: Bool) throws -> PreparedRequest

    /// The number of rows the request returns.
    func fetchCount(_ db: Database) throws -> Int
}

extension FetchRequest {
    /// The prepared statement of the request: `statement.sql` shows the
    /// generated SQL, for debugging.
    public func makePreparedRequest(_ db: Database) throws -> PreparedRequest {
        try makePreparedRequest(db, forSingleResult: false)
    }
}

/// A statement ready to run, with its arguments bound.
public struct PreparedRequest {
    /// The statement, whose `sql` is the SQL of the request.
    public var statement: Statement

    public init(statement: Statement) {
        self.statement = statement
    }
}

extension Database {
    /// A cached statement with `arguments` bound.
    func preparedStatement(sql: String, arguments: StatementArguments) throws -> Statement {
        let statement = try cachedStatement(sql: sql)
        try statement.setArguments(arguments)
        return statement
    }
}

// MARK: - Fetching rows

extension FetchRequest where RowDecoder == Row {
    public func fetchCursor(_ db: Database) throws -> RowCursor {
        try Row.fetchCursor(makePreparedRequest(db).statement)
    }

    public func fetchAll(_ db: Database) throws -> [Row] {
        try Row.fetchAll(makePreparedRequest(db).statement)
    }

    public func fetchSet(_ db: Database) throws -> Set<Row> {
        try Row.fetchSet(makePreparedRequest(db).statement)
    }

    public func fetchOne(_ db: Database) throws -> Row? {
        try Row.fetchOne(makePreparedRequest(db, forSingleResult: true).statement)
    }
}

// MARK: - Fetching values

extension FetchRequest where RowDecoder: DatabaseValueConvertible {
    public func fetchCursor(_ db: Database) throws -> DatabaseValueCursor<RowDecoder> {
        try RowDecoder.fetchCursor(makePreparedRequest(db).statement)
    }

    public func fetchAll(_ db: Database) throws -> [RowDecoder] {
        try RowDecoder.fetchAll(makePreparedRequest(db).statement)
    }

    public func fetchOne(_ db: Database) throws -> RowDecoder? {
        try RowDecoder.fetchOne(makePreparedRequest(db, forSingleResult: true).statement)
    }
}

extension FetchRequest where RowDecoder: DatabaseValueConvertible & Hashable {
    public func fetchSet(_ db: Database) throws -> Set<RowDecoder> {
        try RowDecoder.fetchSet(makePreparedRequest(db).statement)
    }
}

extension FetchRequest where RowDecoder: DatabaseValueConvertible & StatementColumnConvertible {
    public func fetchCursor(_ db: Database) throws -> FastDatabaseValueCursor<RowDecoder> {
        try RowDecoder.fetchCursor(makePreparedRequest(db).statement)
    }

    public func fetchAll(_ db: Database) throws -> [RowDecoder] {
        try RowDecoder.fetchAll(makePreparedRequest(db).statement)
    }

    public func fetchOne(_ db: Database) throws -> RowDecoder? {
        try RowDecoder.fetchOne(makePreparedRequest(db, forSingleResult: true).statement)
    }
}

extension FetchRequest where RowDecoder: DatabaseValueConvertible & StatementColumnConvertible & Hashable {
    public func fetchSet(_ db: Database) throws -> Set<RowDecoder> {
        try RowDecoder.fetchSet(makePreparedRequest(db).statement)
    }
}

// MARK: - SQLRequest

/// A request written in SQL.
///
/// ```swift
/// let request: SQLRequest<Player> = "SELECT * FROM player WHERE score > \(1000)"
/// let players = try request.fetchAll(db)
/// ```
public struct SQLRequest<RowDecoder>: FetchRequest, Sendable {
    let sqlLiteral: SQL

    /// A request from SQL and arguments.
    public init(sql: String, arguments: StatementArguments = StatementArguments(), as type: RowDecoder.Type = RowDecoder.self) {
        sqlLiteral = SQL(sql: sql, arguments: arguments)
    }

    /// A request from an SQL literal.
    public init(literal sqlLiteral: SQL, as type: RowDecoder.Type = RowDecoder.self) {
        self.sqlLiteral = sqlLiteral
    }

    public func makePreparedRequest(_ db: Database, forSingleResult singleResult: Bool) throws -> PreparedRequest {
        let (sql, arguments) = try sqlLiteral.build(db)
        return PreparedRequest(statement: try db.preparedStatement(sql: sql, arguments: arguments))
    }

    public func fetchCount(_ db: Database) throws -> Int {
        let (sql, arguments) = try sqlLiteral.build(db)
        return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM (\(sql))", arguments: arguments) ?? 0
    }
}

extension SQLRequest: ExpressibleByStringInterpolation {
    public init(stringLiteral value: String) {
        self.init(sql: value)
    }

    public init(stringInterpolation: SQLInterpolation) {
        self.init(literal: SQL(stringInterpolation: stringInterpolation))
    }
}
