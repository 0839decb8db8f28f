/// A request that fetches values, rows or records of type `RowDecoder`.
///
/// A request is also a subquery (`Column("score") == bestScoreRequest`)
/// and a database region, for observation.
///
/// ```swift
/// let request: some FetchRequest<Player> = Player.filter(Column("score") > 1000)
/// let players = try request.fetchAll(db)
/// let count = try request.fetchCount(db)
/// ```
public protocol FetchRequest<RowDecoder>: SQLSubqueryable, DatabaseRegionConvertible {
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

/// A statement ready to run, with its arguments bound: what a
/// ``FetchRequest`` gives to the `fetch` methods.
///
/// ```swift
/// let preparedRequest = try Player.all().makePreparedRequest(db)
/// print(preparedRequest.statement.sql) // SELECT * FROM "player"
/// ```
public struct PreparedRequest {
    /// The statement, whose `sql` is the SQL of the request.
    public var statement: Statement

    /// The adapter of the fetched rows, if any.
    public var adapter: (any RowAdapter)?

    /// Rows fetched after the rows of the statement, for the rows of the
    /// statement (associated rows, one query per association): nil for
    /// most requests. The `fetchAll`, `fetchSet` and `fetchOne` methods
    /// call it; `fetchCursor` can not.
    var supplementaryFetch: SupplementaryFetch?

    init(statement: Statement, adapter: (any RowAdapter)? = nil, supplementaryFetch: SupplementaryFetch? = nil) {
        self.statement = statement
        self.adapter = adapter
        self.supplementaryFetch = supplementaryFetch
    }
}

/// Fetches what a request needs beyond its statement, given the rows of
/// the statement (copied rows, that it may complete). `willFetch`, if any,
/// is called with each request it runs, before it runs it.
typealias SupplementaryFetch = (_ db: Database, _ rows: [Row], _ willFetch: WillFetchSupplementaryRequest?) throws -> Void

/// Told of a request of a ``SupplementaryFetch`` and of the key path of
/// its rows in ``Row/prefetchedRows``, before it runs (dumps print them).
typealias WillFetchSupplementaryRequest = (_ request: QueryInterfaceRequest<Row>, _ keyPath: [String]) throws -> Void

extension Database {
    /// A cached statement with `arguments` bound.
    func preparedStatement(sql: String, arguments: StatementArguments) throws -> Statement {
        let statement = try cachedStatement(sql: sql)
        try statement.setArguments(arguments)
        return statement
    }
}

// MARK: - SQLRequest

/// A request written in SQL.
///
/// ```swift
/// let request: SQLRequest<Player> = "SELECT * FROM player WHERE score > \(1000)"
/// let players = try request.fetchAll(db)
/// let rows = try SQLRequest(sql: "SELECT * FROM player").fetchAll(db) // [Row]
/// ```
///
/// Each fetch prepares a new statement, unless the request is `cached`:
/// then the statement is reused from the connection's cache (see
/// ``Database/cachedStatement(sql:)``).
public struct SQLRequest<RowDecoder>: FetchRequest, Sendable {
    let sqlLiteral: SQL
    let cached: Bool

    /// The adapter of the fetched rows, if any.
    public var adapter: (any RowAdapter)?

    /// A request from SQL and arguments.
    public init(sql: String, arguments: StatementArguments = StatementArguments(),
                adapter: (any RowAdapter)? = nil, cached: Bool = false)
    {
        self.init(literal: SQL(sql: sql, arguments: arguments), adapter: adapter, cached: cached)
    }

    /// A request from an SQL literal:
    /// `SQLRequest<Player>(literal: "SELECT * FROM player WHERE id = \(id)")`.
    public init(literal sqlLiteral: SQL, adapter: (any RowAdapter)? = nil, cached: Bool = false) {
        self.sqlLiteral = sqlLiteral
        self.adapter = adapter
        self.cached = cached
    }

    public func makePreparedRequest(_ db: Database, forSingleResult singleResult: Bool = false) throws -> PreparedRequest {
        let (sql, arguments) = try sqlLiteral.build(db)
        let statement = try cached ? db.cachedStatement(sql: sql) : db.makeStatement(sql: sql)
        try statement.setArguments(arguments)
        return PreparedRequest(statement: statement, adapter: adapter)
    }

    public func fetchCount(_ db: Database) throws -> Int {
        let (sql, arguments) = try sqlLiteral.build(db)
        return try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM (\(sql))", arguments: arguments) ?? 0
    }
}

extension SQLRequest<Row> {
    /// A request of rows from SQL and arguments: `SQLRequest(sql: "SELECT 1")`
    /// fetches rows.
    public init(sql: String, arguments: StatementArguments = StatementArguments(),
                adapter: (any RowAdapter)? = nil, cached: Bool = false)
    {
        self.init(literal: SQL(sql: sql, arguments: arguments), adapter: adapter, cached: cached)
    }

    /// A request of rows from an SQL literal.
    public init(literal sqlLiteral: SQL, adapter: (any RowAdapter)? = nil, cached: Bool = false) {
        self.sqlLiteral = sqlLiteral
        self.adapter = adapter
        self.cached = cached
    }
}

extension SQLRequest: ExpressibleByStringInterpolation {
    public init(unicodeScalarLiteral value: String) {
        self.init(sql: value)
    }

    public init(extendedGraphemeClusterLiteral value: String) {
        self.init(sql: value)
    }

    public init(stringLiteral value: String) {
        self.init(sql: value)
    }

    public init(stringInterpolation: SQLInterpolation) {
        self.init(literal: SQL(stringInterpolation: stringInterpolation))
    }
}
