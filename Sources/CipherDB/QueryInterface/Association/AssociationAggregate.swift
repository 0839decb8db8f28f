// Aggregates of to-many associations: the number of books of each author,
// whether an author has no book, the average score of a team's players.
//
// ```swift
// // SELECT author.*, COUNT(DISTINCT book.id) AS bookCount
// // FROM author LEFT JOIN book ON book.authorId = author.id
// // GROUP BY author.id
// let request = Author.annotated(with: Author.books.count)
//
// // … HAVING COUNT(DISTINCT book.id) = 0
// let authorsWithoutBooks = Author.having(Author.books.isEmpty)
// ```

extension AssociationToMany {
    private func aggregate(_ expression: SQLExpression, key: String?) -> AssociationAggregate<OriginRowDecoder> {
        let alias = TableAlias<Void>()
        let joined = withQuery { $0 = $0.aliased(alias) }
        return AssociationAggregate(
            associations: [joined._sqlAssociation],
            expression: expression.qualified(with: alias),
            key: key)
    }

    private var singularKey: String { _sqlAssociation.destination.key.singularizedName }

    /// The name of an aggregate of a column: `maxBookYear`.
    private func aggregateKey(_ prefix: String, _ expression: some SQLSpecificExpressible, _ suffix: String = "") -> String? {
        guard let column = expression as? any ColumnExpression else { return nil }
        if prefix.isEmpty {
            return singularKey + column.name.uppercasingFirstCharacter + suffix
        }
        return prefix + singularKey.uppercasingFirstCharacter + column.name.uppercasingFirstCharacter + suffix
    }

    /// `COUNT(DISTINCT child.id)`, named `bookCount` for `books`.
    public var count: AssociationAggregate<OriginRowDecoder> {
        aggregate(.countDistinctFastPrimaryKey, key: singularKey + "Count")
    }

    /// `COUNT(DISTINCT child.id) = 0`, named `hasNoBook` for `books`.
    public var isEmpty: AssociationAggregate<OriginRowDecoder> {
        aggregate(SQLExpression(.isEmpty(.countDistinctFastPrimaryKey, isNegated: false)),
                  key: "hasNo" + singularKey.uppercasingFirstCharacter)
    }

    /// `AVG(expression)`, named `averageBookPrice` for `books` and `price`.
    public func average(_ expression: some SQLSpecificExpressible) -> AssociationAggregate<OriginRowDecoder> {
        aggregate(SQLExpression(.aggregate("AVG", [expression.sqlExpression], isDistinct: false)),
                  key: aggregateKey("average", expression))
    }

    /// `MAX(expression)`, named `maxBookYear` for `books` and `year`.
    public func max(_ expression: some SQLSpecificExpressible) -> AssociationAggregate<OriginRowDecoder> {
        aggregate(SQLExpression(.aggregate("MAX", [expression.sqlExpression], isDistinct: false)),
                  key: aggregateKey("max", expression))
    }

    /// `MIN(expression)`, named `minBookYear` for `books` and `year`.
    public func min(_ expression: some SQLSpecificExpressible) -> AssociationAggregate<OriginRowDecoder> {
        aggregate(SQLExpression(.aggregate("MIN", [expression.sqlExpression], isDistinct: false)),
                  key: aggregateKey("min", expression))
    }

    /// `SUM(expression)`, named `bookPriceSum` for `books` and `price`.
    public func sum(_ expression: some SQLSpecificExpressible) -> AssociationAggregate<OriginRowDecoder> {
        aggregate(SQLExpression(.aggregate("SUM", [expression.sqlExpression], isDistinct: false)),
                  key: aggregateKey("", expression, "Sum"))
    }

    /// `TOTAL(expression)`, named `bookPriceSum` for `books` and `price`,
    /// as `sum`: both compute sums.
    public func total(_ expression: some SQLSpecificExpressible) -> AssociationAggregate<OriginRowDecoder> {
        aggregate(SQLExpression(.aggregate("TOTAL", [expression.sqlExpression], isDistinct: false)),
                  key: aggregateKey("", expression, "Sum"))
    }
}

extension AssociationToMany where RowDecoder: TableRecord {
    public typealias DatabaseComponents = RowDecoder.DatabaseComponents

    /// `AVG` of one of the destination's columns.
    public func average(
        _ expression: (DatabaseComponents) throws -> some SQLSpecificExpressible) rethrows -> AssociationAggregate<OriginRowDecoder>
    {
        try average(expression(RowDecoder.databaseComponents))
    }

    /// `MAX` of one of the destination's columns.
    public func max(
        _ expression: (DatabaseComponents) throws -> some SQLSpecificExpressible) rethrows -> AssociationAggregate<OriginRowDecoder>
    {
        try max(expression(RowDecoder.databaseComponents))
    }

    /// `MIN` of one of the destination's columns.
    public func min(
        _ expression: (DatabaseComponents) throws -> some SQLSpecificExpressible) rethrows -> AssociationAggregate<OriginRowDecoder>
    {
        try min(expression(RowDecoder.databaseComponents))
    }

    /// `SUM` of one of the destination's columns.
    public func sum(
        _ expression: (DatabaseComponents) throws -> some SQLSpecificExpressible) rethrows -> AssociationAggregate<OriginRowDecoder>
    {
        try sum(expression(RowDecoder.databaseComponents))
    }

    /// `TOTAL` of one of the destination's columns.
    public func total(
        _ expression: (DatabaseComponents) throws -> some SQLSpecificExpressible) rethrows -> AssociationAggregate<OriginRowDecoder>
    {
        try total(expression(RowDecoder.databaseComponents))
    }
}

extension SQLExpression {
    /// `COUNT(DISTINCT key)`, for the fast primary key of the table an
    /// aggregate qualifies it with.
    fileprivate static let countDistinctFastPrimaryKey = SQLExpression(
        .aggregate("COUNT", [SQLExpression(.fastPrimaryKey)], isDistinct: true))
}

/// An aggregate of a to-many association, for `annotated(with:)` and
/// `having(_:)`: the requests join the association with `LEFT JOIN`, and
/// group by the primary key of their table.
public struct AssociationAggregate<RowDecoder>: Sendable {
    /// The associations to join, each aliased with the table alias that
    /// `expression` refers to.
    let associations: [_SQLAssociation]
    let expression: SQLExpression
    /// The name of the column, when the aggregate is selected.
    var key: String?

    /// The aggregate, selected under another name.
    public func forKey(_ key: String) -> Self {
        var aggregate = self
        aggregate.key = key
        return aggregate
    }

    /// The aggregate, selected under the name of a coding key.
    public func forKey(_ key: some CodingKey) -> Self {
        forKey(key.stringValue)
    }

    /// Adds the joins and grouping of the aggregate to `request`.
    func prepare<Request: DerivableRequest<RowDecoder>>(_ request: Request) -> Request {
        var request = request
        for association in associations {
            request = request._joining(optional: association)
        }
        return request.groupByPrimaryKey()
    }

    /// An aggregate computed from this one, without a key unless
    /// `keepsKey`: `??` and `cast` keep the key of their aggregate, as in
    /// GRDB (`Team.players.min(score) ?? 0` is still `minPlayerScore`).
    func map(keepsKey: Bool = false, _ transform: (SQLExpression) -> SQLExpression) -> Self {
        AssociationAggregate(associations: associations, expression: transform(expression), key: keepsKey ? key : nil)
    }

    /// An aggregate computed from two.
    static func combine(_ lhs: Self, _ rhs: Self, _ transform: (SQLExpression, SQLExpression) -> SQLExpression) -> Self {
        AssociationAggregate(associations: lhs.associations + rhs.associations,
                             expression: transform(lhs.expression, rhs.expression), key: nil)
    }
}

extension DerivableRequest {
    /// Selects aggregates of associations after the current selection:
    /// `Author.annotated(with: Author.books.count)`.
    public func annotated(with aggregates: AssociationAggregate<RowDecoder>...) -> Self {
        annotated(with: aggregates)
    }

    /// Selects aggregates of associations after the current selection.
    public func annotated(with aggregates: [AssociationAggregate<RowDecoder>]) -> Self {
        var request = self
        for aggregate in aggregates {
            request = aggregate.prepare(request)
            let expression = aggregate.expression
            if let key = aggregate.key {
                request = request.annotated(with: [expression.forKey(key)])
            } else {
                request = request.annotated(with: [expression])
            }
        }
        return request
    }

    /// Keeps the groups for which an aggregate of associations is true:
    /// `Author.having(Author.books.count > 5)`.
    public func having(_ predicate: AssociationAggregate<RowDecoder>) -> Self {
        predicate.prepare(self).having(predicate.expression)
    }
}

extension String {
    /// `book` → `Book`.
    var uppercasingFirstCharacter: String {
        guard let first else { return self }
        return first.uppercased() + dropFirst()
    }
}
