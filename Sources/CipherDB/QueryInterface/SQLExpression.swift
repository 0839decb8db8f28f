/// An SQL expression, built by the query interface.
///
/// ```swift
/// let expression: SQLExpression = Column("score") > 1000 && Column("name") != nil
/// let players = try Player.filter(expression).fetchAll(db)
/// ```
///
/// Values in expressions are bound as statement arguments, never spliced
/// into the SQL.
///
/// See <https://www.sqlite.org/lang_expr.html>.
public struct SQLExpression: Sendable {
    indirect enum Impl: Sendable {
        /// A column, optionally qualified by its table.
        case column(String)
        /// A value, bound as an argument.
        case value(DatabaseValue)
        /// Raw SQL, with its arguments.
        case literal(SQL)
        /// `NOT expr`, `-expr`.
        case unary(String, SQLExpression)
        /// `lhs op rhs` (`=`, `<`, `+`, `LIKE`, `IS`, …).
        case binary(String, SQLExpression, SQLExpression)
        /// `a AND b AND c`, `a OR b`: never empty.
        case associative(String, [SQLExpression])
        /// `name(arguments)`, or `name(DISTINCT argument)`.
        case function(String, [SQLExpression], isDistinct: Bool)
        /// `COUNT(*)`.
        case countAll
        /// `expr COLLATE name`.
        case collate(SQLExpression, String)
        /// `expr IN (…)` or `expr NOT IN (…)`.
        case inList(SQLExpression, [SQLExpression], negated: Bool)
        /// `expr BETWEEN low AND high` or `NOT BETWEEN`.
        case between(SQLExpression, SQLExpression, SQLExpression, negated: Bool)
        /// `expr LIKE pattern ESCAPE escape`.
        case like(SQLExpression, SQLExpression, escape: SQLExpression?)
        /// `expr AS alias` in a selection.
        case aliased(SQLExpression, String)
    }

    let impl: Impl

    init(_ impl: Impl) {
        self.impl = impl
    }

    /// A column.
    static func column(_ name: String) -> SQLExpression { SQLExpression(.column(name)) }

    /// A value, bound as an argument.
    static func value(_ value: (any DatabaseValueConvertible)?) -> SQLExpression {
        SQLExpression(.value(value?.databaseValue ?? .null))
    }

    /// Whether the expression is the NULL value.
    var isNull: Bool {
        if case .value(let dbValue) = impl { return dbValue.isNull }
        return false
    }

    /// `expr AS alias`, for selections: `Column("score").forKey("points")`.
    public func forKey(_ key: String) -> SQLExpression {
        SQLExpression(.aliased(self, key))
    }

    /// `a AND b AND …`, or TRUE for no expression.
    static func and(_ expressions: [SQLExpression]) -> SQLExpression {
        switch expressions.count {
        case 0: return SQLExpression(.literal("1"))
        case 1: return expressions[0]
        default: return SQLExpression(.associative("AND", expressions))
        }
    }

    /// `a OR b OR …`, or FALSE for no expression.
    static func or(_ expressions: [SQLExpression]) -> SQLExpression {
        switch expressions.count {
        case 0: return SQLExpression(.literal("0"))
        case 1: return expressions[0]
        default: return SQLExpression(.associative("OR", expressions))
        }
    }

    // MARK: - SQL generation

    /// The SQL of the expression, with its values appended to `arguments`.
    func sql(_ context: SQLGenerationContext) throws -> String {
        switch impl {
        case .column(let name):
            return name.quotedDatabaseIdentifier
        case .value(let dbValue):
            if dbValue.isNull { return "NULL" }
            if context.inlinesValues { return dbValue.description }
            context.arguments.values.append(dbValue)
            return "?"
        case .literal(let literal):
            return try literal.sql(context)
        case let .unary(op, operand):
            return op + " " + (try operand.parenthesizedSQL(context))
        case let .binary(op, lhs, rhs):
            return try lhs.parenthesizedSQL(context) + " " + op + " " + rhs.parenthesizedSQL(context)
        case let .associative(op, operands):
            return try operands.map { try $0.parenthesizedSQL(context) }.joined(separator: " \(op) ")
        case let .function(name, arguments, isDistinct):
            let list = try arguments.map { try $0.sql(context) }.joined(separator: ", ")
            return name + "(" + (isDistinct ? "DISTINCT " : "") + list + ")"
        case .countAll:
            return "COUNT(*)"
        case let .collate(expression, collation):
            return try expression.parenthesizedSQL(context) + " COLLATE " + collation
        case let .inList(expression, list, negated):
            let items = try list.map { try $0.sql(context) }.joined(separator: ", ")
            return try expression.parenthesizedSQL(context) + (negated ? " NOT IN (" : " IN (") + items + ")"
        case let .between(expression, low, high, negated):
            return try expression.parenthesizedSQL(context) + (negated ? " NOT BETWEEN " : " BETWEEN ")
                + low.parenthesizedSQL(context) + " AND " + high.parenthesizedSQL(context)
        case let .like(expression, pattern, escape):
            var sql = try expression.parenthesizedSQL(context) + " LIKE " + pattern.parenthesizedSQL(context)
            if let escape { sql += " ESCAPE " + (try escape.parenthesizedSQL(context)) }
            return sql
        case let .aliased(expression, alias):
            return try expression.sql(context) + " AS " + alias.quotedDatabaseIdentifier
        }
    }

    /// The SQL, in parentheses unless it is atomic.
    private func parenthesizedSQL(_ context: SQLGenerationContext) throws -> String {
        switch impl {
        case .column, .value, .function, .countAll:
            return try sql(context)
        default:
            return "(" + (try sql(context)) + ")"
        }
    }
}

/// Collects the arguments of the SQL being generated.
final class SQLGenerationContext {
    let db: Database
    var arguments = StatementArguments()
    /// Whether values are written as SQL literals instead of parameters
    /// (schema definitions accept no parameter).
    var inlinesValues = false

    init(_ db: Database) {
        self.db = db
    }
}

// MARK: - Protocols

/// A type that can be used in SQL expressions: values and expressions.
public protocol SQLExpressible {
    /// The expression.
    var sqlExpression: SQLExpression { get }
}

/// A type that is an SQL expression, and not a plain value: the operators
/// of the query interface apply to them, so that `Column("a") == 1` is SQL
/// while `1 == 1` stays a Swift comparison.
public protocol SQLSpecificExpressible: SQLExpressible, SQLSelectable, SQLOrderingTerm {}

extension SQLSpecificExpressible {
    public var sqlSelection: SQLSelection { SQLSelection(.expression(sqlExpression)) }
    public var sqlOrdering: SQLOrdering { SQLOrdering(sqlExpression, .ascending) }
}

extension SQLExpression: SQLSpecificExpressible {
    public var sqlExpression: SQLExpression { self }
}

extension DatabaseValue: SQLExpressible {
    public var sqlExpression: SQLExpression { SQLExpression(.value(self)) }
}

extension DatabaseValueConvertible {
    /// The value, bound as an argument.
    public var sqlExpression: SQLExpression { SQLExpression(.value(databaseValue)) }
}

extension SQL: SQLSpecificExpressible {
    /// The literal as an expression: `Player.filter(sql: "score > ?", arguments: [10])`.
    public var sqlExpression: SQLExpression { SQLExpression(.literal(self)) }
}
