/// A term of an `ORDER BY` clause.
///
/// ```swift
/// Player.order(Column("score").desc, Column("name"))
/// Player.order(Column("email").ascNullsLast)
/// ```
///
/// SQLite 3.15.2 has no `NULLS FIRST`/`NULLS LAST`: ``SQLSpecificExpressible/ascNullsLast``
/// and ``SQLSpecificExpressible/descNullsFirst`` sort on `expr IS NULL` first.
///
/// See <https://www.sqlite.org/lang_select.html#orderby>.
public struct SQLOrdering: Sendable {
    enum Direction: Sendable {
        /// The expression alone: `ORDER BY score` (ascending).
        case unspecified
        case ascending, descending, ascendingNullsLast, descendingNullsFirst
    }

    enum Impl: Sendable {
        case expression(SQLExpression, Direction)
        /// Raw SQL, which may hold several terms: `order(sql: "score DESC")`.
        case literal(SQL)
    }

    let impl: Impl

    init(_ expression: SQLExpression, _ direction: Direction) {
        impl = .expression(expression, direction)
    }

    init(literal: SQL) {
        impl = .literal(literal)
    }

    /// The opposite ordering, or nil for raw SQL, which cannot be reversed.
    var reversed: SQLOrdering? {
        switch impl {
        case let .expression(expression, direction):
            switch direction {
            case .unspecified, .ascending: return SQLOrdering(expression, .descending)
            case .descending: return SQLOrdering(expression, .ascending)
            case .ascendingNullsLast: return SQLOrdering(expression, .descendingNullsFirst)
            case .descendingNullsFirst: return SQLOrdering(expression, .ascendingNullsLast)
            }
        case .literal:
            return nil
        }
    }

    func sql(_ context: SQLGenerationContext) throws -> String {
        switch impl {
        case let .expression(expression, direction):
            let sql = try expression.sql(context)
            switch direction {
            case .unspecified: return sql
            case .ascending: return sql + " ASC"
            case .descending: return sql + " DESC"
            // NULLs sort first in ascending order in SQLite: sorting on
            // `IS NULL` (0 or 1) first moves them.
            case .ascendingNullsLast: return "(" + sql + ") IS NULL, " + (try expression.sql(context)) + " ASC"
            case .descendingNullsFirst: return "(" + sql + ") IS NULL DESC, " + (try expression.sql(context)) + " DESC"
            }
        case .literal(let literal):
            return try literal.sql(context)
        }
    }
}

/// A type that can be a term of `ORDER BY`: expressions and orderings.
public protocol SQLOrderingTerm {
    var sqlOrdering: SQLOrdering { get }
}

extension SQLOrdering: SQLOrderingTerm {
    public var sqlOrdering: SQLOrdering { self }
}

extension SQLSpecificExpressible {
    /// `expr ASC`.
    public var asc: SQLOrdering { SQLOrdering(sqlExpression, .ascending) }
    /// `expr DESC`.
    public var desc: SQLOrdering { SQLOrdering(sqlExpression, .descending) }
    /// Ascending, with NULLs first (SQLite's default for ascending order).
    public var ascNullsFirst: SQLOrdering { SQLOrdering(sqlExpression, .ascending) }
    /// Ascending, with NULLs last.
    public var ascNullsLast: SQLOrdering { SQLOrdering(sqlExpression, .ascendingNullsLast) }
    /// Descending, with NULLs first.
    public var descNullsFirst: SQLOrdering { SQLOrdering(sqlExpression, .descendingNullsFirst) }
    /// Descending, with NULLs last (SQLite's default for descending order).
    public var descNullsLast: SQLOrdering { SQLOrdering(sqlExpression, .descending) }
}
