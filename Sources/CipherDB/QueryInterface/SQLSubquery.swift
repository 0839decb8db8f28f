/// A `SELECT` query inside an expression: `(SELECT …)`, `IN (SELECT …)`,
/// `EXISTS (SELECT …)`.
///
/// ```swift
/// // SELECT * FROM player WHERE score = (SELECT MAX(score) FROM player)
/// let maximumScore = Player.select(max(Column("score")))
/// let best = try Player.filter(Column("score") == maximumScore).fetchAll(db)
///
/// // SELECT * FROM author WHERE id IN (SELECT authorId FROM book)
/// let authorIds = Book.select(Column("authorId"))
/// let authors = try Author.filter(authorIds.contains(Column("id"))).fetchAll(db)
/// ```
public struct SQLSubquery: Sendable {
    enum Impl: Sendable {
        case literal(SQL)
        case query(SQLQuery)
    }

    let impl: Impl

    /// The SQL of the subquery, its arguments added to the statement's.
    func sql(_ context: SQLGenerationContext) throws -> String {
        switch impl {
        case .literal(let literal):
            return try literal.sql(context)
        case .query(let query):
            return try query.selectSQL(context.subqueryContext())
        }
    }
}

/// A request that can be used as a subquery: query interface requests and
/// ``SQLRequest``.
public protocol SQLSubqueryable: SQLSpecificExpressible {
    /// The request, as a subquery.
    var sqlSubquery: SQLSubquery { get }
}

extension SQLSubqueryable {
    /// `(SELECT …)`.
    public var sqlExpression: SQLExpression {
        SQLExpression(.subquery(sqlSubquery))
    }

    /// `element IN (SELECT …)`.
    public func contains(_ element: some SQLExpressible) -> SQLExpression {
        SQLExpression(.inSubquery(element.sqlExpression, sqlSubquery, isNegated: false))
    }

    /// `EXISTS (SELECT …)`.
    public func exists() -> SQLExpression {
        SQLExpression(.exists(sqlSubquery, isNegated: false))
    }
}

extension QueryInterfaceRequest: SQLSubqueryable {
    public var sqlSubquery: SQLSubquery { SQLSubquery(impl: .query(query)) }
}

extension SQLRequest: SQLSubqueryable {
    public var sqlSubquery: SQLSubquery { SQLSubquery(impl: .literal(sqlLiteral)) }
}
