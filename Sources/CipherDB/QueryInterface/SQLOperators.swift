// The operators of the query interface. They apply when one side at least
// is an SQL expression (``SQLSpecificExpressible``): `Column("a") == 1`
// builds SQL, `1 == 1` stays Swift.
//
// See <https://www.sqlite.org/lang_expr.html#operators>.

// MARK: - Equality

extension SQLSpecificExpressible {
    /// `lhs = rhs`, or `lhs IS NULL` when `rhs` is nil.
    public static func == (lhs: Self, rhs: (any SQLExpressible)?) -> SQLExpression {
        equal(lhs.sqlExpression, rhs?.sqlExpression ?? .value(nil))
    }

    /// `lhs = rhs`.
    public static func == (lhs: (any SQLExpressible)?, rhs: Self) -> SQLExpression {
        equal(lhs?.sqlExpression ?? .value(nil), rhs.sqlExpression)
    }

    /// `lhs = rhs`.
    public static func == (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        equal(lhs.sqlExpression, rhs.sqlExpression)
    }

    /// `lhs <> rhs`, or `lhs IS NOT NULL` when `rhs` is nil.
    public static func != (lhs: Self, rhs: (any SQLExpressible)?) -> SQLExpression {
        notEqual(lhs.sqlExpression, rhs?.sqlExpression ?? .value(nil))
    }

    /// `lhs <> rhs`.
    public static func != (lhs: (any SQLExpressible)?, rhs: Self) -> SQLExpression {
        notEqual(lhs?.sqlExpression ?? .value(nil), rhs.sqlExpression)
    }

    /// `lhs <> rhs`.
    public static func != (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        notEqual(lhs.sqlExpression, rhs.sqlExpression)
    }

    /// `lhs IS rhs`: equality where NULL equals NULL.
    public static func === (lhs: Self, rhs: (any SQLExpressible)?) -> SQLExpression {
        SQLExpression(.binary("IS", lhs.sqlExpression, rhs?.sqlExpression ?? .value(nil)))
    }

    /// `lhs IS NOT rhs`.
    public static func !== (lhs: Self, rhs: (any SQLExpressible)?) -> SQLExpression {
        SQLExpression(.binary("IS NOT", lhs.sqlExpression, rhs?.sqlExpression ?? .value(nil)))
    }
}

private func equal(_ lhs: SQLExpression, _ rhs: SQLExpression) -> SQLExpression {
    if rhs.isNull { return SQLExpression(.binary("IS", lhs, rhs)) }
    if lhs.isNull { return SQLExpression(.binary("IS", rhs, lhs)) }
    return SQLExpression(.binary("=", lhs, rhs))
}

private func notEqual(_ lhs: SQLExpression, _ rhs: SQLExpression) -> SQLExpression {
    if rhs.isNull { return SQLExpression(.binary("IS NOT", lhs, rhs)) }
    if lhs.isNull { return SQLExpression(.binary("IS NOT", rhs, lhs)) }
    return SQLExpression(.binary("<>", lhs, rhs))
}

// MARK: - Comparison and arithmetic

extension SQLSpecificExpressible {
    public static func < (lhs: Self, rhs: some SQLExpressible) -> SQLExpression { binary("<", lhs, rhs) }
    public static func < (lhs: some SQLExpressible, rhs: Self) -> SQLExpression { binary("<", lhs, rhs) }
    public static func < (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression { binary("<", lhs, rhs) }
    public static func <= (lhs: Self, rhs: some SQLExpressible) -> SQLExpression { binary("<=", lhs, rhs) }
    public static func <= (lhs: some SQLExpressible, rhs: Self) -> SQLExpression { binary("<=", lhs, rhs) }
    public static func <= (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression { binary("<=", lhs, rhs) }
    public static func > (lhs: Self, rhs: some SQLExpressible) -> SQLExpression { binary(">", lhs, rhs) }
    public static func > (lhs: some SQLExpressible, rhs: Self) -> SQLExpression { binary(">", lhs, rhs) }
    public static func > (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression { binary(">", lhs, rhs) }
    public static func >= (lhs: Self, rhs: some SQLExpressible) -> SQLExpression { binary(">=", lhs, rhs) }
    public static func >= (lhs: some SQLExpressible, rhs: Self) -> SQLExpression { binary(">=", lhs, rhs) }
    public static func >= (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression { binary(">=", lhs, rhs) }

    public static func + (lhs: Self, rhs: some SQLExpressible) -> SQLExpression { binary("+", lhs, rhs) }
    public static func + (lhs: some SQLExpressible, rhs: Self) -> SQLExpression { binary("+", lhs, rhs) }
    public static func + (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression { binary("+", lhs, rhs) }
    public static func - (lhs: Self, rhs: some SQLExpressible) -> SQLExpression { binary("-", lhs, rhs) }
    public static func - (lhs: some SQLExpressible, rhs: Self) -> SQLExpression { binary("-", lhs, rhs) }
    public static func - (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression { binary("-", lhs, rhs) }
    public static func * (lhs: Self, rhs: some SQLExpressible) -> SQLExpression { binary("*", lhs, rhs) }
    public static func * (lhs: some SQLExpressible, rhs: Self) -> SQLExpression { binary("*", lhs, rhs) }
    public static func * (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression { binary("*", lhs, rhs) }
    public static func / (lhs: Self, rhs: some SQLExpressible) -> SQLExpression { binary("/", lhs, rhs) }
    public static func / (lhs: some SQLExpressible, rhs: Self) -> SQLExpression { binary("/", lhs, rhs) }
    public static func / (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression { binary("/", lhs, rhs) }

    /// `-expr`.
    public static prefix func - (value: Self) -> SQLExpression {
        SQLExpression(.unary("-", value.sqlExpression))
    }
}

private func binary(_ op: String, _ lhs: some SQLExpressible, _ rhs: some SQLExpressible) -> SQLExpression {
    SQLExpression(.binary(op, lhs.sqlExpression, rhs.sqlExpression))
}

// MARK: - Logic

extension SQLSpecificExpressible {
    public static func && (lhs: Self, rhs: some SQLExpressible) -> SQLExpression { and(lhs, rhs) }
    public static func && (lhs: some SQLExpressible, rhs: Self) -> SQLExpression { and(lhs, rhs) }
    public static func && (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression { and(lhs, rhs) }
    public static func || (lhs: Self, rhs: some SQLExpressible) -> SQLExpression { or(lhs, rhs) }
    public static func || (lhs: some SQLExpressible, rhs: Self) -> SQLExpression { or(lhs, rhs) }
    public static func || (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression { or(lhs, rhs) }

    /// `NOT expr`.
    public static prefix func ! (value: Self) -> SQLExpression {
        SQLExpression(.unary("NOT", value.sqlExpression))
    }
}

private func and(_ lhs: some SQLExpressible, _ rhs: some SQLExpressible) -> SQLExpression {
    SQLExpression.and(flatten("AND", lhs.sqlExpression) + flatten("AND", rhs.sqlExpression))
}

private func or(_ lhs: some SQLExpressible, _ rhs: some SQLExpressible) -> SQLExpression {
    SQLExpression.or(flatten("OR", lhs.sqlExpression) + flatten("OR", rhs.sqlExpression))
}

/// `a AND (b AND c)` is `a AND b AND c`.
private func flatten(_ op: String, _ expression: SQLExpression) -> [SQLExpression] {
    if case let .associative(expressionOp, operands) = expression.impl, expressionOp == op {
        return operands
    }
    return [expression]
}

// MARK: - LIKE, COLLATE

extension SQLSpecificExpressible {
    /// `expr LIKE pattern [ESCAPE escape]`: case-insensitive for ASCII.
    ///
    /// See <https://www.sqlite.org/lang_expr.html#like>.
    public func like(_ pattern: some SQLExpressible, escape: (any SQLExpressible)? = nil) -> SQLExpression {
        SQLExpression(.like(sqlExpression, pattern.sqlExpression, escape: escape?.sqlExpression))
    }

    /// `expr COLLATE name`, for a collation of CipherDB or a custom one.
    public func collating(_ collation: DatabaseCollation) -> SQLExpression {
        SQLExpression(.collate(sqlExpression, collation.name))
    }

    /// `expr COLLATE name`, for SQLite's built-in collations.
    ///
    /// See <https://www.sqlite.org/datatype3.html#collation>.
    public func collating(_ collation: Database.CollationName) -> SQLExpression {
        SQLExpression(.collate(sqlExpression, collation.rawValue))
    }
}

extension Database {
    /// SQLite's built-in collations.
    public struct CollationName: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        public static let binary = CollationName(rawValue: "BINARY")
        public static let nocase = CollationName(rawValue: "NOCASE")
        public static let rtrim = CollationName(rawValue: "RTRIM")
    }
}

// MARK: - Collections and ranges

extension Sequence where Element: SQLExpressible {
    /// `expr IN (…)`: `[1, 2, 3].contains(Column("id"))`.
    public func contains(_ element: some SQLSpecificExpressible) -> SQLExpression {
        SQLExpression(.inList(element.sqlExpression, map(\.sqlExpression), negated: false))
    }
}

extension Sequence where Element == any SQLExpressible {
    /// `expr IN (…)`.
    public func contains(_ element: some SQLSpecificExpressible) -> SQLExpression {
        SQLExpression(.inList(element.sqlExpression, map(\.sqlExpression), negated: false))
    }
}

extension ClosedRange where Bound: SQLExpressible {
    /// `expr BETWEEN lower AND upper`: `(1...10).contains(Column("score"))`.
    public func contains(_ element: some SQLSpecificExpressible) -> SQLExpression {
        SQLExpression(.between(element.sqlExpression, lowerBound.sqlExpression, upperBound.sqlExpression, negated: false))
    }
}

extension Range where Bound: SQLExpressible {
    /// `expr >= lower AND expr < upper`: `(1..<10).contains(Column("score"))`.
    public func contains(_ element: some SQLSpecificExpressible) -> SQLExpression {
        element >= lowerBound && element < upperBound
    }
}

extension PartialRangeFrom where Bound: SQLExpressible {
    public func contains(_ element: some SQLSpecificExpressible) -> SQLExpression {
        element >= lowerBound
    }
}

extension PartialRangeThrough where Bound: SQLExpressible {
    public func contains(_ element: some SQLSpecificExpressible) -> SQLExpression {
        element <= upperBound
    }
}

extension PartialRangeUpTo where Bound: SQLExpressible {
    public func contains(_ element: some SQLSpecificExpressible) -> SQLExpression {
        element < upperBound
    }
}

extension SQLExpression {
    /// The negation, with `NOT IN` and `NOT BETWEEN` where they apply.
    public var negated: SQLExpression {
        switch impl {
        case let .inList(expression, list, negated):
            return SQLExpression(.inList(expression, list, negated: !negated))
        case let .between(expression, low, high, negated):
            return SQLExpression(.between(expression, low, high, negated: !negated))
        default:
            return SQLExpression(.unary("NOT", self))
        }
    }
}
