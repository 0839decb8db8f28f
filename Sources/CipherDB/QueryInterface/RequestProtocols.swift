// The protocols of derivable requests: a request that can be refined with
// a selection, a filter, an order, a grouping. ``QueryInterfaceRequest``
// adopts them all, and extensions of ``DerivableRequest`` define reusable
// refinements:
//
// ```swift
// extension DerivableRequest<Player> {
//     func orderedByName() -> Self {
//         order(Columns.name.collating(.localizedCaseInsensitiveCompare))
//     }
// }
// ```

// MARK: - SelectionRequest

/// A request whose selection can change.
public protocol SelectionRequest {
    /// A request that selects `selection` instead of its current selection.
    func select(_ selection: [any SQLSelectable]) -> Self

    /// A request that selects `selection` after its current selection.
    func annotated(with selection: [any SQLSelectable]) -> Self
}

extension SelectionRequest {
    /// `SELECT a, b, …`.
    public func select(_ selection: any SQLSelectable...) -> Self {
        select(selection)
    }

    /// `SELECT` raw SQL: `select(sql: "id, name")`.
    public func select(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        select([SQLSelection(.literal(SQL(sql: sql, arguments: arguments)))])
    }

    /// `SELECT` an SQL literal.
    public func select(literal sqlLiteral: SQL) -> Self {
        select([SQLSelection(.literal(sqlLiteral))])
    }

    /// Appends to the selection.
    public func annotated(with selection: any SQLSelectable...) -> Self {
        annotated(with: selection)
    }
}

// MARK: - FilteredRequest

/// A request whose rows can be filtered.
public protocol FilteredRequest {
    /// A request with `predicate` added to its filter (with `AND`).
    func filter(_ predicate: some SQLExpressible) -> Self
}

extension FilteredRequest {
    /// `WHERE` raw SQL: `filter(sql: "score > ?", arguments: [1000])`.
    public func filter(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        filter(SQL(sql: sql, arguments: arguments))
    }

    /// `WHERE` an SQL literal.
    public func filter(literal sqlLiteral: SQL) -> Self {
        filter(sqlLiteral)
    }

    /// A request that returns no row.
    public func none() -> Self {
        filter(SQL(sql: "0"))
    }
}

// MARK: - OrderedRequest

/// A request whose rows can be ordered.
public protocol OrderedRequest {
    /// A request ordered by `orderings`, replacing its current order.
    func order(_ orderings: [any SQLOrderingTerm]) -> Self

    /// A request in the reverse order. A request with no order is ordered
    /// by primary key, descending.
    func reversed() -> Self

    /// A request with no order.
    func unordered() -> Self
}

extension OrderedRequest {
    /// `ORDER BY a, b, …`, replacing the current order.
    public func order(_ orderings: any SQLOrderingTerm...) -> Self {
        order(orderings)
    }

    /// `ORDER BY` raw SQL: `order(sql: "RANDOM()")`.
    public func order(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        order([SQLOrdering(literal: SQL(sql: sql, arguments: arguments))])
    }

    /// `ORDER BY` an SQL literal.
    public func order(literal sqlLiteral: SQL) -> Self {
        order([SQLOrdering(literal: sqlLiteral)])
    }
}

// MARK: - AggregatingRequest

/// A request whose rows can be grouped.
public protocol AggregatingRequest {
    /// `GROUP BY`, replacing the current grouping.
    func group(_ expressions: [any SQLExpressible]) -> Self

    /// A request with `predicate` added to its `HAVING` clause.
    func having(_ predicate: some SQLExpressible) -> Self
}

extension AggregatingRequest {
    /// `GROUP BY a, b, …`.
    public func group(_ expressions: any SQLExpressible...) -> Self {
        group(expressions)
    }

    /// `GROUP BY` raw SQL.
    public func group(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        group([SQL(sql: sql, arguments: arguments)])
    }

    /// `HAVING` raw SQL.
    public func having(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        having(SQL(sql: sql, arguments: arguments))
    }
}

// MARK: - TableRequest

/// A request that feeds from a table.
public protocol TableRequest {
    /// The name of the table.
    var databaseTableName: String { get }
}

// MARK: - TypedRequest

/// A request that knows the type of what it fetches.
public protocol TypedRequest<RowDecoder> {
    associatedtype RowDecoder
}

// MARK: - DerivableRequest

/// A request that can be refined in every way: the protocol to extend with
/// reusable requests of a record type.
///
/// ```swift
/// extension DerivableRequest<Player> {
///     func orderedByScore() -> Self {
///         order(Columns.score.desc, Columns.name)
///     }
/// }
/// let best = try Player.all().orderedByScore().fetchOne(db)
/// ```
///
/// Associations (joins) are not available yet: the protocol will grow
/// `JoinableRequest` when they come.
public protocol DerivableRequest<RowDecoder>: AggregatingRequest, FilteredRequest, OrderedRequest,
    SelectionRequest, TableRequest, TypedRequest
{
    /// `SELECT DISTINCT`.
    func distinct() -> Self
}

extension DerivableRequest where RowDecoder: TableRecord {
    /// The columns of the record type, so that extensions of
    /// `DerivableRequest<Player>` can write `Columns.name`.
    public typealias Columns = RowDecoder.Columns
}
