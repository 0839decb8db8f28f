/// A common table expression: a named request that other requests of the
/// statement can use as a table (`WITH name AS (…) SELECT …`).
///
/// ```swift
/// // WITH bestScore AS (SELECT MAX(score) AS score FROM player)
/// // SELECT player.* FROM player JOIN bestScore ON bestScore.score = player.score
/// let bestScore = CommonTableExpression(
///     named: "bestScore",
///     request: Player.select(max(Column("score")).forKey("score")))
/// let association = Player.association(to: bestScore) { player, bestScore in
///     bestScore[Column("score")] == player[Column("score")]
/// }
/// let bestPlayers = try Player.all()
///     .with(bestScore)
///     .joining(required: association)
///     .fetchAll(db)
/// ```
///
/// See <https://www.sqlite.org/lang_with.html>.
public struct CommonTableExpression<RowDecoder>: Sendable {
    let cte: SQLCTE

    /// The name of the table the expression defines.
    public var tableName: String { cte.tableName }

    /// An expression defined by a request.
    ///
    /// - parameters:
    ///   - recursive: Whether the request refers to the expression itself.
    ///   - columns: The names of the columns (default: the ones the
    ///     request selects).
    public init(recursive: Bool = false, named tableName: String, columns: [String]? = nil,
                request: some SQLSubqueryable)
    {
        cte = SQLCTE(recursive: recursive, named: tableName, columns: columns, subquery: request.sqlSubquery)
    }

    /// An expression defined by SQL.
    public init(recursive: Bool = false, named tableName: String, columns: [String]? = nil,
                sql: String, arguments: StatementArguments = StatementArguments())
    {
        cte = SQLCTE(recursive: recursive, named: tableName, columns: columns, literal: SQL(sql: sql, arguments: arguments))
    }

    /// An expression defined by an SQL literal.
    public init(recursive: Bool = false, named tableName: String, columns: [String]? = nil, literal sqlLiteral: SQL) {
        cte = SQLCTE(recursive: recursive, named: tableName, columns: columns, literal: sqlLiteral)
    }
}

extension CommonTableExpression<Row> {
    /// An expression of rows, defined by a request.
    public init(recursive: Bool = false, named tableName: String, columns: [String]? = nil,
                request: some SQLSubqueryable)
    {
        cte = SQLCTE(recursive: recursive, named: tableName, columns: columns, subquery: request.sqlSubquery)
    }

    /// An expression of rows, defined by SQL.
    public init(recursive: Bool = false, named tableName: String, columns: [String]? = nil,
                sql: String, arguments: StatementArguments = StatementArguments())
    {
        cte = SQLCTE(recursive: recursive, named: tableName, columns: columns, literal: SQL(sql: sql, arguments: arguments))
    }

    /// An expression of rows, defined by an SQL literal.
    public init(recursive: Bool = false, named tableName: String, columns: [String]? = nil, literal sqlLiteral: SQL) {
        cte = SQLCTE(recursive: recursive, named: tableName, columns: columns, literal: sqlLiteral)
    }
}

extension CommonTableExpression {
    /// A request of all rows of the expression: `SELECT * FROM name`. Give
    /// the expression to the request with `with(_:)`.
    public func all() -> QueryInterfaceRequest<RowDecoder> {
        QueryInterfaceRequest(tableName: tableName, selection: [AllColumns().sqlSelection])
    }

    /// `element IN name`: whether the single column of the expression
    /// contains `element`.
    public func contains(_ element: some SQLExpressible) -> SQLExpression {
        SQLExpression(.inTable(element.sqlExpression, tableName, isNegated: false))
    }

    /// An association to another expression, joined on `condition`.
    public func association<Destination>(
        to cte: CommonTableExpression<Destination>,
        on condition: @escaping @Sendable (_ left: TableAlias<RowDecoder>, _ right: TableAlias<Destination>) -> any SQLExpressible)
        -> JoinAssociation<RowDecoder, Destination>
    {
        JoinAssociation(to: cte.all().query, condition: .typed(condition))
    }

    /// An association to another expression, joined on every row.
    public func association<Destination>(to cte: CommonTableExpression<Destination>) -> JoinAssociation<RowDecoder, Destination> {
        JoinAssociation(to: cte.all().query, condition: .none)
    }

    /// An association to a record type, joined on `condition`.
    public func association<Destination: TableRecord>(
        to destination: Destination.Type,
        on condition: @escaping @Sendable (_ left: TableAlias<RowDecoder>, _ right: TableAlias<Destination>) -> any SQLExpressible)
        -> JoinAssociation<RowDecoder, Destination>
    {
        JoinAssociation(to: Destination.all().query, condition: .typed(condition))
    }

    /// An association to a record type, joined on every row.
    public func association<Destination: TableRecord>(to destination: Destination.Type) -> JoinAssociation<RowDecoder, Destination> {
        JoinAssociation(to: Destination.all().query, condition: .none)
    }

    /// An association to a table, joined on `condition`.
    public func association<Destination>(
        to destination: Table<Destination>,
        on condition: @escaping @Sendable (_ left: TableAlias<RowDecoder>, _ right: TableAlias<Destination>) -> any SQLExpressible)
        -> JoinAssociation<RowDecoder, Destination>
    {
        JoinAssociation(to: destination.all().query, condition: .typed(condition))
    }

    /// An association to a table, joined on every row.
    public func association<Destination>(to destination: Table<Destination>) -> JoinAssociation<RowDecoder, Destination> {
        JoinAssociation(to: destination.all().query, condition: .none)
    }
}

extension TableRecord {
    /// An association to a common table expression, joined on `condition`.
    public static func association<Destination>(
        to cte: CommonTableExpression<Destination>,
        on condition: @escaping @Sendable (_ left: TableAlias<Self>, _ right: TableAlias<Destination>) -> any SQLExpressible)
        -> JoinAssociation<Self, Destination>
    {
        JoinAssociation(to: cte.all().query, condition: .typed(condition))
    }

    /// An association to a common table expression, joined on every row.
    public static func association<Destination>(to cte: CommonTableExpression<Destination>) -> JoinAssociation<Self, Destination> {
        JoinAssociation(to: cte.all().query, condition: .none)
    }

    /// `WITH name AS (…) SELECT * FROM table`.
    public static func with<T>(_ cte: CommonTableExpression<T>) -> QueryInterfaceRequest<Self> {
        all().with(cte)
    }
}

extension Table {
    /// An association to a common table expression, joined on `condition`.
    public func association<Destination>(
        to cte: CommonTableExpression<Destination>,
        on condition: @escaping @Sendable (_ left: TableAlias<RowDecoder>, _ right: TableAlias<Destination>) -> any SQLExpressible)
        -> JoinAssociation<RowDecoder, Destination>
    {
        JoinAssociation(to: cte.all().query, condition: .typed(condition))
    }

    /// An association to a common table expression, joined on every row.
    public func association<Destination>(to cte: CommonTableExpression<Destination>) -> JoinAssociation<RowDecoder, Destination> {
        JoinAssociation(to: cte.all().query, condition: .none)
    }

    /// `WITH name AS (…) SELECT * FROM table`.
    public func with<T>(_ cte: CommonTableExpression<T>) -> QueryInterfaceRequest<RowDecoder> {
        all().with(cte)
    }
}

extension [SQLCTE] {
    /// `WITH [RECURSIVE] name AS (…), … ` (with a trailing space), or
    /// nothing when there is no expression.
    func withClause(_ context: SQLGenerationContext) throws -> String {
        guard !isEmpty else { return "" }
        let keyword = contains(where: \.isRecursive) ? "WITH RECURSIVE " : "WITH "
        return try keyword + map { try $0.sql(context.subqueryContext()) }.joined(separator: ", ") + " "
    }
}

/// The definition of a common table expression, in the `WITH` clause.
struct SQLCTE: Sendable {
    var tableName: String
    var columns: [String]?
    var subquery: SQLSubquery
    var isRecursive: Bool

    init(recursive: Bool, named tableName: String, columns: [String]?, subquery: SQLSubquery) {
        self.tableName = tableName
        self.columns = columns
        self.subquery = subquery
        isRecursive = recursive
    }

    init(recursive: Bool, named tableName: String, columns: [String]?, literal: SQL) {
        self.init(recursive: recursive, named: tableName, columns: columns, subquery: SQLSubquery(impl: .literal(literal)))
    }

    /// `name(a, b) AS (SELECT …)`.
    func sql(_ context: SQLGenerationContext) throws -> String {
        var sql = tableName.quotedDatabaseIdentifier
        if let columns, !columns.isEmpty {
            sql += "(" + columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ")"
        }
        return sql + " AS (" + (try subquery.sql(context)) + ")"
    }
}

extension SQLAssociationCondition {
    /// An expression of the two tables, written with typed aliases.
    static func typed<Origin, Destination>(
        _ condition: @escaping @Sendable (TableAlias<Origin>, TableAlias<Destination>) -> any SQLExpressible)
        -> SQLAssociationCondition
    {
        .expression { origin, destination in
            condition(TableAlias(proxyOf: origin), TableAlias(proxyOf: destination)).sqlExpression
        }
    }
}
