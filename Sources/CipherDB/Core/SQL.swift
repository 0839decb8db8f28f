import Foundation

/// An SQL fragment with its arguments, built by string interpolation.
/// Interpolated values become bound arguments: they are never spliced into
/// the SQL text, so they can neither break nor inject SQL.
///
/// ```swift
/// let name = "O'Brien"
/// let ids = [1, 2, 3]
/// try db.execute(literal: "UPDATE player SET name = \(name) WHERE id IN \(ids)")
/// // UPDATE player SET name = ? WHERE id IN (?,?,?)
///
/// let order: SQL = "ORDER BY \(sql: "score") DESC" // raw SQL, not an argument
/// ```
public struct SQL: Sendable {
    enum Element: Sendable {
        case sql(String, StatementArguments)
        /// A value or a query interface expression: `\(name)`, `\(Column("name"))`.
        case expression(SQLExpression)
        /// A selection: `\(AllColumns())`.
        case selection(SQLSelection)
        /// An ordering: `\(Column("score").desc)`.
        case ordering(SQLOrdering)
        /// A subquery, without parentheses: `(\(Player.select(max(Column("score")))))`.
        case subquery(SQLSubquery)
        /// An identifier, quoted: `\(Player.self)`.
        case identifier(String)
    }

    private(set) var elements: [Element]

    init(elements: [Element]) {
        self.elements = elements
    }

    /// Raw SQL, with arguments for its `?` and `:name` parameters.
    public init(sql: String, arguments: StatementArguments = StatementArguments()) {
        elements = [.sql(sql, arguments)]
    }

    /// An expression: a value (bound as an argument), a column…
    public init(_ expression: some SQLExpressible) {
        elements = [.expression(expression.sqlExpression)]
    }

    /// Whether the fragment is empty.
    public var isEmpty: Bool {
        elements.allSatisfy {
            if case .sql(let sql, let arguments) = $0 { return sql.isEmpty && arguments.isEmpty }
            return false
        }
    }

    /// Appends another fragment.
    public mutating func append(literal sqlLiteral: SQL) {
        elements.append(contentsOf: sqlLiteral.elements)
    }

    /// Appends raw SQL.
    public mutating func append(sql: String, arguments: StatementArguments = StatementArguments()) {
        elements.append(.sql(sql, arguments))
    }

    public static func + (lhs: SQL, rhs: SQL) -> SQL {
        SQL(elements: lhs.elements + rhs.elements)
    }

    public static func += (lhs: inout SQL, rhs: SQL) {
        lhs.append(literal: rhs)
    }

    /// The SQL text and its arguments.
    public func build(_ db: Database) throws -> (sql: String, arguments: StatementArguments) {
        let context = SQLGenerationContext(db)
        let sql = try sql(context)
        return (sql, context.arguments)
    }

    /// The SQL text, with the arguments appended to the context.
    func sql(_ context: SQLGenerationContext) throws -> String {
        var sql = ""
        for element in elements {
            switch element {
            case let .sql(text, elementArguments):
                if context.inlinesValues && !elementArguments.isEmpty {
                    throw DatabaseError(resultCode: .SQLITE_MISUSE,
                                        message: "schema definitions accept no statement argument: interpolate values instead")
                }
                sql += text
                context.arguments += elementArguments
            case let .expression(expression):
                sql += try expression.sql(context)
            case let .selection(selection):
                sql += try selection.sql(context)
            case let .ordering(ordering):
                sql += try ordering.sql(context)
            case let .subquery(subquery):
                sql += try subquery.sql(context)
            case let .identifier(name):
                sql += name.quotedDatabaseIdentifier
            }
        }
        return sql
    }
}

extension SQL: ExpressibleByStringInterpolation {
    public init(stringLiteral value: String) {
        self.init(sql: value)
    }

    public init(stringInterpolation: SQLInterpolation) {
        self.init(elements: stringInterpolation.elements)
    }
}

extension Sequence where Element == SQL {
    /// The fragments, joined by a separator: `[a, b].joined(separator: ", ")`.
    public func joined(separator: String = "") -> SQL {
        var result = SQL(elements: [])
        for (index, fragment) in enumerated() {
            if index > 0 && !separator.isEmpty { result.append(sql: separator) }
            result.append(literal: fragment)
        }
        return result
    }
}

/// The string interpolation of ``SQL``.
public struct SQLInterpolation: StringInterpolationProtocol {
    var elements: [SQL.Element] = []

    public init(literalCapacity: Int, interpolationCount: Int) {
        elements.reserveCapacity(2 * interpolationCount + 1)
    }

    public mutating func appendLiteral(_ literal: String) {
        if !literal.isEmpty {
            elements.append(.sql(literal, StatementArguments()))
        }
    }

    /// `\(sql: "raw SQL", arguments: ...)`: raw SQL, spliced as is.
    public mutating func appendInterpolation(sql: String, arguments: StatementArguments = StatementArguments()) {
        elements.append(.sql(sql, arguments))
    }

    /// `\(fragment)`: another SQL fragment.
    public mutating func appendInterpolation(_ sqlLiteral: SQL) {
        elements.append(contentsOf: sqlLiteral.elements)
    }

    /// `\(literal: fragment)`: another SQL fragment.
    public mutating func appendInterpolation(literal sqlLiteral: SQL) {
        elements.append(contentsOf: sqlLiteral.elements)
    }

    /// `\(string)`: a string, bound as an argument.
    public mutating func appendInterpolation<S: StringProtocol>(_ string: S) {
        elements.append(.expression(String(string).sqlExpression))
    }
}
