// Operators on association aggregates: `Author.having(Author.books.count > 5)`,
// `Team.annotated(with: (Team.players.sum(Column("score")) / Team.players.count).forKey("average"))`.
// Each one combines the SQL of its operands, and their joins.

extension AssociationAggregate {
    /// `NOT aggregate`, or its idiomatic negation (`COUNT(…) > 0` for
    /// `!isEmpty`).
    public static prefix func ! (aggregate: Self) -> Self {
        aggregate.map { $0.is(.falsey) }
    }

    /// `-aggregate`.
    public static prefix func - (aggregate: Self) -> Self {
        aggregate.map { .unary(.minus, $0) }
    }

    // MARK: - Logic

    public static func && (lhs: Self, rhs: Self) -> Self {
        combine(lhs, rhs) { .and([$0, $1]) }
    }

    public static func && (lhs: Self, rhs: some SQLExpressible) -> Self {
        let rhs = rhs.sqlExpression
        return lhs.map { .and([$0, rhs]) }
    }

    public static func && (lhs: some SQLExpressible, rhs: Self) -> Self {
        let lhs = lhs.sqlExpression
        return rhs.map { .and([lhs, $0]) }
    }

    public static func || (lhs: Self, rhs: Self) -> Self {
        combine(lhs, rhs) { .or([$0, $1]) }
    }

    public static func || (lhs: Self, rhs: some SQLExpressible) -> Self {
        let rhs = rhs.sqlExpression
        return lhs.map { .or([$0, rhs]) }
    }

    public static func || (lhs: some SQLExpressible, rhs: Self) -> Self {
        let lhs = lhs.sqlExpression
        return rhs.map { .or([lhs, $0]) }
    }

    // MARK: - Equality and identity

    public static func == (lhs: Self, rhs: Self) -> Self {
        combine(lhs, rhs) { .equal($0, $1) }
    }

    public static func == (lhs: Self, rhs: (any SQLExpressible)?) -> Self {
        let rhs = rhs?.sqlExpression ?? .null
        return lhs.map { .equal($0, rhs) }
    }

    public static func == (lhs: (any SQLExpressible)?, rhs: Self) -> Self {
        let lhs = lhs?.sqlExpression ?? .null
        return rhs.map { .equal(lhs, $0) }
    }

    public static func == (lhs: Self, rhs: Bool) -> Self {
        lhs.map { $0.is(rhs ? .true : .false) }
    }

    public static func == (lhs: Bool, rhs: Self) -> Self {
        rhs.map { $0.is(lhs ? .true : .false) }
    }

    public static func != (lhs: Self, rhs: Self) -> Self {
        combine(lhs, rhs) { .notEqual($0, $1) }
    }

    public static func != (lhs: Self, rhs: (any SQLExpressible)?) -> Self {
        let rhs = rhs?.sqlExpression ?? .null
        return lhs.map { .notEqual($0, rhs) }
    }

    public static func != (lhs: (any SQLExpressible)?, rhs: Self) -> Self {
        let lhs = lhs?.sqlExpression ?? .null
        return rhs.map { .notEqual(lhs, $0) }
    }

    public static func != (lhs: Self, rhs: Bool) -> Self {
        lhs.map { $0.is(rhs ? .false : .true) }
    }

    public static func != (lhs: Bool, rhs: Self) -> Self {
        rhs.map { $0.is(lhs ? .false : .true) }
    }

    public static func === (lhs: Self, rhs: Self) -> Self {
        combine(lhs, rhs) { .compare(.is, $0, $1) }
    }

    public static func === (lhs: Self, rhs: (any SQLExpressible)?) -> Self {
        let rhs = rhs?.sqlExpression ?? .null
        return lhs.map { .compare(.is, $0, rhs) }
    }

    public static func === (lhs: (any SQLExpressible)?, rhs: Self) -> Self {
        let lhs = lhs?.sqlExpression ?? .null
        return rhs.map { .compare(.is, lhs, $0) }
    }

    public static func !== (lhs: Self, rhs: Self) -> Self {
        combine(lhs, rhs) { .compare(.isNot, $0, $1) }
    }

    public static func !== (lhs: Self, rhs: (any SQLExpressible)?) -> Self {
        let rhs = rhs?.sqlExpression ?? .null
        return lhs.map { .compare(.isNot, $0, rhs) }
    }

    public static func !== (lhs: (any SQLExpressible)?, rhs: Self) -> Self {
        let lhs = lhs?.sqlExpression ?? .null
        return rhs.map { .compare(.isNot, lhs, $0) }
    }

    // MARK: - Comparison

    public static func < (lhs: Self, rhs: Self) -> Self {
        combine(lhs, rhs) { .binary(.lessThan, $0, $1) }
    }

    public static func < (lhs: Self, rhs: some SQLExpressible) -> Self {
        let rhs = rhs.sqlExpression
        return lhs.map { .binary(.lessThan, $0, rhs) }
    }

    public static func < (lhs: some SQLExpressible, rhs: Self) -> Self {
        let lhs = lhs.sqlExpression
        return rhs.map { .binary(.lessThan, lhs, $0) }
    }

    public static func <= (lhs: Self, rhs: Self) -> Self {
        combine(lhs, rhs) { .binary(.lessThanOrEqual, $0, $1) }
    }

    public static func <= (lhs: Self, rhs: some SQLExpressible) -> Self {
        let rhs = rhs.sqlExpression
        return lhs.map { .binary(.lessThanOrEqual, $0, rhs) }
    }

    public static func <= (lhs: some SQLExpressible, rhs: Self) -> Self {
        let lhs = lhs.sqlExpression
        return rhs.map { .binary(.lessThanOrEqual, lhs, $0) }
    }

    public static func > (lhs: Self, rhs: Self) -> Self {
        combine(lhs, rhs) { .binary(.greaterThan, $0, $1) }
    }

    public static func > (lhs: Self, rhs: some SQLExpressible) -> Self {
        let rhs = rhs.sqlExpression
        return lhs.map { .binary(.greaterThan, $0, rhs) }
    }

    public static func > (lhs: some SQLExpressible, rhs: Self) -> Self {
        let lhs = lhs.sqlExpression
        return rhs.map { .binary(.greaterThan, lhs, $0) }
    }

    public static func >= (lhs: Self, rhs: Self) -> Self {
        combine(lhs, rhs) { .binary(.greaterThanOrEqual, $0, $1) }
    }

    public static func >= (lhs: Self, rhs: some SQLExpressible) -> Self {
        let rhs = rhs.sqlExpression
        return lhs.map { .binary(.greaterThanOrEqual, $0, rhs) }
    }

    public static func >= (lhs: some SQLExpressible, rhs: Self) -> Self {
        let lhs = lhs.sqlExpression
        return rhs.map { .binary(.greaterThanOrEqual, lhs, $0) }
    }

    // MARK: - Arithmetic

    public static func + (lhs: Self, rhs: Self) -> Self {
        combine(lhs, rhs) { .associativeBinary(.add, [$0, $1]) }
    }

    public static func + (lhs: Self, rhs: some SQLExpressible) -> Self {
        let rhs = rhs.sqlExpression
        return lhs.map { .associativeBinary(.add, [$0, rhs]) }
    }

    public static func + (lhs: some SQLExpressible, rhs: Self) -> Self {
        let lhs = lhs.sqlExpression
        return rhs.map { .associativeBinary(.add, [lhs, $0]) }
    }

    public static func - (lhs: Self, rhs: Self) -> Self {
        combine(lhs, rhs) { .binary(.subtract, $0, $1) }
    }

    public static func - (lhs: Self, rhs: some SQLExpressible) -> Self {
        let rhs = rhs.sqlExpression
        return lhs.map { .binary(.subtract, $0, rhs) }
    }

    public static func - (lhs: some SQLExpressible, rhs: Self) -> Self {
        let lhs = lhs.sqlExpression
        return rhs.map { .binary(.subtract, lhs, $0) }
    }

    public static func * (lhs: Self, rhs: Self) -> Self {
        combine(lhs, rhs) { .associativeBinary(.multiply, [$0, $1]) }
    }

    public static func * (lhs: Self, rhs: some SQLExpressible) -> Self {
        let rhs = rhs.sqlExpression
        return lhs.map { .associativeBinary(.multiply, [$0, rhs]) }
    }

    public static func * (lhs: some SQLExpressible, rhs: Self) -> Self {
        let lhs = lhs.sqlExpression
        return rhs.map { .associativeBinary(.multiply, [lhs, $0]) }
    }

    public static func / (lhs: Self, rhs: Self) -> Self {
        combine(lhs, rhs) { .binary(.divide, $0, $1) }
    }

    public static func / (lhs: Self, rhs: some SQLExpressible) -> Self {
        let rhs = rhs.sqlExpression
        return lhs.map { .binary(.divide, $0, rhs) }
    }

    public static func / (lhs: some SQLExpressible, rhs: Self) -> Self {
        let lhs = lhs.sqlExpression
        return rhs.map { .binary(.divide, lhs, $0) }
    }

    /// `IFNULL(aggregate, value)`, with the key of the aggregate.
    public static func ?? (lhs: Self, rhs: some SQLExpressible) -> Self {
        let rhs = rhs.sqlExpression
        return lhs.map(keepsKey: true) { SQLExpression(.function("IFNULL", [$0, rhs])) }
    }
}

/// `ABS(aggregate)`.
public func abs<RowDecoder>(_ aggregate: AssociationAggregate<RowDecoder>) -> AssociationAggregate<RowDecoder> {
    aggregate.map { SQLExpression(.function("ABS", [$0])) }
}

/// `CAST(aggregate AS storageClass)`, with the key of the aggregate.
public func cast<RowDecoder>(
    _ aggregate: AssociationAggregate<RowDecoder>,
    as storageClass: Database.StorageClass) -> AssociationAggregate<RowDecoder>
{
    aggregate.map(keepsKey: true) { SQLExpression(.cast($0, storageClass.rawValue)) }
}

/// `LENGTH(aggregate)`.
public func length<RowDecoder>(_ aggregate: AssociationAggregate<RowDecoder>) -> AssociationAggregate<RowDecoder> {
    aggregate.map { SQLExpression(.function("LENGTH", [$0])) }
}
