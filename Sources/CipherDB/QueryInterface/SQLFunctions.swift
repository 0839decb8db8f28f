// SQL functions of the query interface.
//
// See <https://www.sqlite.org/lang_corefunc.html>,
// <https://www.sqlite.org/lang_aggfunc.html> and
// <https://www.sqlite.org/lang_datefunc.html>.

/// `ABS(value)`.
public func abs(_ value: some SQLSpecificExpressible) -> SQLExpression {
    function("ABS", value)
}

/// `AVG(value)`.
public func average(_ value: some SQLSpecificExpressible) -> SQLExpression {
    aggregate("AVG", value)
}

/// `COUNT(value)`: the number of non-NULL values.
public func count(_ counted: some SQLSpecificExpressible) -> SQLExpression {
    aggregate("COUNT", counted)
}

/// `COUNT(DISTINCT value)`.
public func count(distinct value: some SQLSpecificExpressible) -> SQLExpression {
    SQLExpression(.aggregate("COUNT", [value.sqlExpression], isDistinct: true))
}

/// `LENGTH(value)`.
public func length(_ value: some SQLSpecificExpressible) -> SQLExpression {
    function("LENGTH", value)
}

/// `MAX(value)`: the aggregate maximum.
public func max(_ value: some SQLSpecificExpressible) -> SQLExpression {
    aggregate("MAX", value)
}

/// `MIN(value)`: the aggregate minimum.
public func min(_ value: some SQLSpecificExpressible) -> SQLExpression {
    aggregate("MIN", value)
}

/// `SUM(value)`: NULL for no row.
public func sum(_ value: some SQLSpecificExpressible) -> SQLExpression {
    aggregate("SUM", value)
}

/// `TOTAL(value)`: 0.0 for no row.
public func total(_ value: some SQLSpecificExpressible) -> SQLExpression {
    aggregate("TOTAL", value)
}

/// `JULIANDAY(value, modifier...)`: the Julian day of a date, after the
/// modifiers, a REAL (see `Date(julianDay:)`).
///
/// ```swift
/// // JULIANDAY(date, '1 days')
/// julianDay(Column("date"), .day(1))
/// ```
///
/// See <https://www.sqlite.org/lang_datefunc.html>.
public func julianDay(_ value: some SQLSpecificExpressible, _ modifiers: SQLDateModifier...) -> SQLExpression {
    SQLExpression(.function("JULIANDAY", [value.sqlExpression] + modifiers.map(\.sqlExpression)))
}

/// `DATETIME(value, modifier...)`: a date after the modifiers, as UTC text
/// `yyyy-MM-dd HH:mm:ss`.
///
/// ```swift
/// // DATETIME(date, 'start of day')
/// dateTime(Column("date"), .startOfDay)
/// ```
///
/// See <https://www.sqlite.org/lang_datefunc.html>.
public func dateTime(_ value: some SQLSpecificExpressible, _ modifiers: SQLDateModifier...) -> SQLExpression {
    SQLExpression(.function("DATETIME", [value.sqlExpression] + modifiers.map(\.sqlExpression)))
}

private func function(_ name: String, _ argument: some SQLExpressible) -> SQLExpression {
    SQLExpression(.function(name, [argument.sqlExpression]))
}

private func aggregate(_ name: String, _ argument: some SQLExpressible) -> SQLExpression {
    SQLExpression(.aggregate(name, [argument.sqlExpression], isDistinct: false))
}

extension SQLSpecificExpressible {
    /// `IFNULL(lhs, rhs)`: `Column("nickname") ?? Column("name")`.
    public static func ?? (lhs: Self, rhs: some SQLExpressible) -> SQLExpression {
        SQLExpression(.function("IFNULL", [lhs.sqlExpression, rhs.sqlExpression]))
    }
}

/// `COUNT(*)`, for selections and `having`.
public struct CountAll: SQLSpecificExpressible, Sendable {
    public init() {}
    public var sqlExpression: SQLExpression { SQLExpression(.countAll) }
}

/// `CAST(expression AS storageClass)`.
///
/// See <https://www.sqlite.org/lang_expr.html#castexpr>.
public func cast(_ expression: some SQLSpecificExpressible, as storageClass: Database.StorageClass) -> SQLExpression {
    SQLExpression(.cast(expression.sqlExpression, storageClass.rawValue))
}

/// `COALESCE(a, b, …)`: the first value that is not NULL. One value is
/// itself, none is NULL.
public func coalesce(_ values: some Collection<any SQLSpecificExpressible>) -> SQLExpression {
    switch values.count {
    case 0: return .null
    case 1: return values.first!.sqlExpression
    default: return SQLExpression(.function("COALESCE", values.map(\.sqlExpression)))
    }
}

/// `MAX(a, b, …)`: the largest of several values (not an aggregate).
public func max(_ value1: any SQLSpecificExpressible, _ value2: any SQLExpressible,
                _ values: any SQLExpressible...) -> SQLExpression
{
    SQLExpression(.function("MAX", [value1.sqlExpression, value2.sqlExpression] + values.map(\.sqlExpression)))
}

/// `MIN(a, b, …)`: the smallest of several values (not an aggregate).
public func min(_ value1: any SQLSpecificExpressible, _ value2: any SQLExpressible,
                _ values: any SQLExpressible...) -> SQLExpression
{
    SQLExpression(.function("MIN", [value1.sqlExpression, value2.sqlExpression] + values.map(\.sqlExpression)))
}

extension Database {
    /// A storage class, for `cast(_:as:)`.
    ///
    /// See <https://www.sqlite.org/datatype3.html#storage_classes_and_datatypes>.
    public struct StorageClass: RawRepresentable, Hashable, Sendable {
        /// The SQL of the storage class: `"INTEGER"`, `"REAL"`…
        public let rawValue: String

        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// `INTEGER`
        public static let integer = StorageClass(rawValue: "INTEGER")
        /// `REAL`
        public static let real = StorageClass(rawValue: "REAL")
        /// `TEXT`
        public static let text = StorageClass(rawValue: "TEXT")
        /// `BLOB`
        public static let blob = StorageClass(rawValue: "BLOB")
        /// `NUMERIC`
        public static let numeric = StorageClass(rawValue: "NUMERIC")
    }
}
