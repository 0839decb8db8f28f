// The operators of the query interface. They apply when one side at least
// is an SQL expression (``SQLSpecificExpressible``): `Column("a") == 1`
// builds SQL, `1 == 1` stays Swift.
//
// See <https://www.sqlite.org/lang_expr.html#operators>.

// MARK: - Equality

extension SQLSpecificExpressible {
    /// `lhs = rhs`, or `lhs IS NULL` when `rhs` is nil.
    public static func == (lhs: Self, rhs: (any SQLExpressible)?) -> SQLExpression {
        .equal(lhs.sqlExpression, rhs?.sqlExpression ?? .null)
    }

    /// `lhs = 1` or `lhs = 0`, or the idiomatic negation of a boolean
    /// expression (`NOT LIKE`, `NOT IN`…) for false.
    public static func == (lhs: Self, rhs: Bool) -> SQLExpression {
        lhs.sqlExpression.is(rhs ? .true : .false)
    }

    /// `lhs = rhs`, or `rhs IS NULL` when `lhs` is nil.
    public static func == (lhs: (any SQLExpressible)?, rhs: Self) -> SQLExpression {
        .equal(lhs?.sqlExpression ?? .null, rhs.sqlExpression)
    }

    /// `rhs = 1` or `rhs = 0`.
    public static func == (lhs: Bool, rhs: Self) -> SQLExpression {
        rhs.sqlExpression.is(lhs ? .true : .false)
    }

    /// `lhs = rhs`.
    public static func == (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        .equal(lhs.sqlExpression, rhs.sqlExpression)
    }

    /// `lhs <> rhs`, or `lhs IS NOT NULL` when `rhs` is nil.
    public static func != (lhs: Self, rhs: (any SQLExpressible)?) -> SQLExpression {
        .notEqual(lhs.sqlExpression, rhs?.sqlExpression ?? .null)
    }

    /// `lhs <> 1` or `lhs <> 0`: the negation of `lhs == rhs`, which keeps
    /// the rows where `lhs` is neither 0 nor 1.
    public static func != (lhs: Self, rhs: Bool) -> SQLExpression {
        (lhs == rhs).is(.falsey)
    }

    /// `lhs <> rhs`, or `rhs IS NOT NULL` when `lhs` is nil.
    public static func != (lhs: (any SQLExpressible)?, rhs: Self) -> SQLExpression {
        .notEqual(lhs?.sqlExpression ?? .null, rhs.sqlExpression)
    }

    /// `rhs <> 1` or `rhs <> 0`: the negation of `lhs == rhs`.
    public static func != (lhs: Bool, rhs: Self) -> SQLExpression {
        (lhs == rhs).is(.falsey)
    }

    /// `lhs <> rhs`.
    public static func != (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        .notEqual(lhs.sqlExpression, rhs.sqlExpression)
    }

    /// `lhs IS rhs`: equality where NULL equals NULL.
    public static func === (lhs: Self, rhs: (any SQLExpressible)?) -> SQLExpression {
        .compare(.is, lhs.sqlExpression, rhs?.sqlExpression ?? .null)
    }

    /// `lhs IS rhs`, or `rhs IS NULL` when `lhs` is nil.
    public static func === (lhs: (any SQLExpressible)?, rhs: Self) -> SQLExpression {
        if let lhs { return .compare(.is, lhs.sqlExpression, rhs.sqlExpression) }
        return .compare(.is, rhs.sqlExpression, .null)
    }

    /// `lhs IS rhs`.
    public static func === (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        .compare(.is, lhs.sqlExpression, rhs.sqlExpression)
    }

    /// `lhs IS NOT rhs`.
    public static func !== (lhs: Self, rhs: (any SQLExpressible)?) -> SQLExpression {
        .compare(.isNot, lhs.sqlExpression, rhs?.sqlExpression ?? .null)
    }

    /// `lhs IS NOT rhs`, or `rhs IS NOT NULL` when `lhs` is nil.
    public static func !== (lhs: (any SQLExpressible)?, rhs: Self) -> SQLExpression {
        if let lhs { return .compare(.isNot, lhs.sqlExpression, rhs.sqlExpression) }
        return .compare(.isNot, rhs.sqlExpression, .null)
    }

    /// `lhs IS NOT rhs`.
    public static func !== (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression {
        .compare(.isNot, lhs.sqlExpression, rhs.sqlExpression)
    }
}

// MARK: - Comparison

extension SQLSpecificExpressible {
    public static func < (lhs: Self, rhs: some SQLExpressible) -> SQLExpression { .binary(.lessThan, lhs.sqlExpression, rhs.sqlExpression) }
    public static func < (lhs: some SQLExpressible, rhs: Self) -> SQLExpression { .binary(.lessThan, lhs.sqlExpression, rhs.sqlExpression) }
    public static func < (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression { .binary(.lessThan, lhs.sqlExpression, rhs.sqlExpression) }
    public static func <= (lhs: Self, rhs: some SQLExpressible) -> SQLExpression { .binary(.lessThanOrEqual, lhs.sqlExpression, rhs.sqlExpression) }
    public static func <= (lhs: some SQLExpressible, rhs: Self) -> SQLExpression { .binary(.lessThanOrEqual, lhs.sqlExpression, rhs.sqlExpression) }
    public static func <= (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression { .binary(.lessThanOrEqual, lhs.sqlExpression, rhs.sqlExpression) }
    public static func > (lhs: Self, rhs: some SQLExpressible) -> SQLExpression { .binary(.greaterThan, lhs.sqlExpression, rhs.sqlExpression) }
    public static func > (lhs: some SQLExpressible, rhs: Self) -> SQLExpression { .binary(.greaterThan, lhs.sqlExpression, rhs.sqlExpression) }
    public static func > (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression { .binary(.greaterThan, lhs.sqlExpression, rhs.sqlExpression) }
    public static func >= (lhs: Self, rhs: some SQLExpressible) -> SQLExpression { .binary(.greaterThanOrEqual, lhs.sqlExpression, rhs.sqlExpression) }
    public static func >= (lhs: some SQLExpressible, rhs: Self) -> SQLExpression { .binary(.greaterThanOrEqual, lhs.sqlExpression, rhs.sqlExpression) }
    public static func >= (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression { .binary(.greaterThanOrEqual, lhs.sqlExpression, rhs.sqlExpression) }
}

// MARK: - Arithmetic and bitwise operators

extension SQLSpecificExpressible {
    public static func + (lhs: Self, rhs: some SQLExpressible) -> SQLExpression { .associativeBinary(.add, [lhs.sqlExpression, rhs.sqlExpression]) }
    public static func + (lhs: some SQLExpressible, rhs: Self) -> SQLExpression { .associativeBinary(.add, [lhs.sqlExpression, rhs.sqlExpression]) }
    public static func + (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression { .associativeBinary(.add, [lhs.sqlExpression, rhs.sqlExpression]) }
    public static func - (lhs: Self, rhs: some SQLExpressible) -> SQLExpression { .binary(.subtract, lhs.sqlExpression, rhs.sqlExpression) }
    public static func - (lhs: some SQLExpressible, rhs: Self) -> SQLExpression { .binary(.subtract, lhs.sqlExpression, rhs.sqlExpression) }
    public static func - (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression { .binary(.subtract, lhs.sqlExpression, rhs.sqlExpression) }
    public static func * (lhs: Self, rhs: some SQLExpressible) -> SQLExpression { .associativeBinary(.multiply, [lhs.sqlExpression, rhs.sqlExpression]) }
    public static func * (lhs: some SQLExpressible, rhs: Self) -> SQLExpression { .associativeBinary(.multiply, [lhs.sqlExpression, rhs.sqlExpression]) }
    public static func * (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression { .associativeBinary(.multiply, [lhs.sqlExpression, rhs.sqlExpression]) }
    public static func / (lhs: Self, rhs: some SQLExpressible) -> SQLExpression { .binary(.divide, lhs.sqlExpression, rhs.sqlExpression) }
    public static func / (lhs: some SQLExpressible, rhs: Self) -> SQLExpression { .binary(.divide, lhs.sqlExpression, rhs.sqlExpression) }
    public static func / (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression { .binary(.divide, lhs.sqlExpression, rhs.sqlExpression) }

    public static func & (lhs: Self, rhs: some SQLExpressible) -> SQLExpression { .associativeBinary(.bitwiseAnd, [lhs.sqlExpression, rhs.sqlExpression]) }
    public static func & (lhs: some SQLExpressible, rhs: Self) -> SQLExpression { .associativeBinary(.bitwiseAnd, [lhs.sqlExpression, rhs.sqlExpression]) }
    public static func & (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression { .associativeBinary(.bitwiseAnd, [lhs.sqlExpression, rhs.sqlExpression]) }
    public static func | (lhs: Self, rhs: some SQLExpressible) -> SQLExpression { .associativeBinary(.bitwiseOr, [lhs.sqlExpression, rhs.sqlExpression]) }
    public static func | (lhs: some SQLExpressible, rhs: Self) -> SQLExpression { .associativeBinary(.bitwiseOr, [lhs.sqlExpression, rhs.sqlExpression]) }
    public static func | (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression { .associativeBinary(.bitwiseOr, [lhs.sqlExpression, rhs.sqlExpression]) }
    public static func << (lhs: Self, rhs: some SQLExpressible) -> SQLExpression { .binary(.leftShift, lhs.sqlExpression, rhs.sqlExpression) }
    public static func << (lhs: some SQLExpressible, rhs: Self) -> SQLExpression { .binary(.leftShift, lhs.sqlExpression, rhs.sqlExpression) }
    public static func << (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression { .binary(.leftShift, lhs.sqlExpression, rhs.sqlExpression) }
    public static func >> (lhs: Self, rhs: some SQLExpressible) -> SQLExpression { .binary(.rightShift, lhs.sqlExpression, rhs.sqlExpression) }
    public static func >> (lhs: some SQLExpressible, rhs: Self) -> SQLExpression { .binary(.rightShift, lhs.sqlExpression, rhs.sqlExpression) }
    public static func >> (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression { .binary(.rightShift, lhs.sqlExpression, rhs.sqlExpression) }

    /// `-expr`.
    public static prefix func - (value: Self) -> SQLExpression {
        .unary(.minus, value.sqlExpression)
    }

    /// `~expr`.
    public static prefix func ~ (value: Self) -> SQLExpression {
        .unary(.bitwiseNot, value.sqlExpression)
    }
}

// MARK: - Logic

extension SQLSpecificExpressible {
    public static func && (lhs: Self, rhs: some SQLExpressible) -> SQLExpression { .and([lhs.sqlExpression, rhs.sqlExpression]) }
    public static func && (lhs: some SQLExpressible, rhs: Self) -> SQLExpression { .and([lhs.sqlExpression, rhs.sqlExpression]) }
    public static func && (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression { .and([lhs.sqlExpression, rhs.sqlExpression]) }
    public static func || (lhs: Self, rhs: some SQLExpressible) -> SQLExpression { .or([lhs.sqlExpression, rhs.sqlExpression]) }
    public static func || (lhs: some SQLExpressible, rhs: Self) -> SQLExpression { .or([lhs.sqlExpression, rhs.sqlExpression]) }
    public static func || (lhs: Self, rhs: some SQLSpecificExpressible) -> SQLExpression { .or([lhs.sqlExpression, rhs.sqlExpression]) }

    /// `NOT expr`, or the negated operator: `!(a == 1)` is `a <> 1`,
    /// `!(a.like(p))` is `a NOT LIKE p`, `![1, 2].contains(a)` is `a NOT IN (1, 2)`.
    public static prefix func ! (value: Self) -> SQLExpression {
        value.sqlExpression.is(.falsey)
    }
}

// MARK: - LIKE, COLLATE

extension SQLSpecificExpressible {
    /// `expr LIKE pattern [ESCAPE escape]`: case-insensitive for ASCII.
    ///
    /// See <https://www.sqlite.org/lang_expr.html#like>.
    public func like(_ pattern: some SQLExpressible, escape: (any SQLExpressible)? = nil) -> SQLExpression {
        SQLExpression(.escapableBinary(.like, sqlExpression, pattern.sqlExpression, escape: escape?.sqlExpression))
    }

    /// `expr COLLATE name`, for a collation of CipherDB or a custom one.
    public func collating(_ collation: DatabaseCollation) -> SQLExpression {
        .collated(sqlExpression, collation.name)
    }

    /// `expr COLLATE name`, for SQLite's built-in collations.
    ///
    /// See <https://www.sqlite.org/datatype3.html#collation>.
    public func collating(_ collation: Database.CollationName) -> SQLExpression {
        .collated(sqlExpression, collation.rawValue)
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
    /// `expr IN (…)`: `[1, 2, 3].contains(Column("id"))`; `expr = value` for
    /// one element, false for none.
    public func contains(_ element: some SQLSpecificExpressible) -> SQLExpression {
        .isIn(element.sqlExpression, map(\.sqlExpression))
    }
}

extension Sequence where Element == any SQLExpressible {
    /// `expr IN (…)`.
    public func contains(_ element: some SQLSpecificExpressible) -> SQLExpression {
        .isIn(element.sqlExpression, map(\.sqlExpression))
    }
}

extension ClosedRange where Bound: SQLExpressible {
    /// `expr BETWEEN lower AND upper`: `(1...10).contains(Column("score"))`.
    public func contains(_ element: some SQLSpecificExpressible) -> SQLExpression {
        .between(element.sqlExpression, lowerBound.sqlExpression, upperBound.sqlExpression)
    }
}

extension Range where Bound: SQLExpressible {
    /// `(expr >= lower) AND (expr < upper)`: `(1..<10).contains(Column("score"))`.
    public func contains(_ element: some SQLSpecificExpressible) -> SQLExpression {
        element >= lowerBound && element < upperBound
    }
}

extension PartialRangeFrom where Bound: SQLExpressible {
    /// `expr >= lower`.
    public func contains(_ element: some SQLSpecificExpressible) -> SQLExpression {
        element >= lowerBound
    }
}

extension PartialRangeThrough where Bound: SQLExpressible {
    /// `expr <= upper`.
    public func contains(_ element: some SQLSpecificExpressible) -> SQLExpression {
        element <= upperBound
    }
}

extension PartialRangeUpTo where Bound: SQLExpressible {
    /// `expr < upper`.
    public func contains(_ element: some SQLSpecificExpressible) -> SQLExpression {
        element < upperBound
    }
}
