/// An SQL expression, built by the query interface.
///
/// ```swift
/// let expression: SQLExpression = Column("score") > 1000 && Column("name") != nil
/// let players = try Player.filter(expression).fetchAll(db)
/// ```
///
/// Values in expressions are bound as statement arguments, never spliced
/// into the SQL. The SQL is GRDB's, to the parenthesis: `!(a == 1)` is
/// `a <> 1`, `![1, 2].contains(a)` is `a NOT IN (1, 2)`, and a comparison
/// of a collated expression is collated as a whole
/// (`"name" = 'x' COLLATE NOCASE`).
///
/// See <https://www.sqlite.org/lang_expr.html>.
public struct SQLExpression: Sendable {
    indirect enum Impl: Sendable {
        /// A column.
        case column(String)
        /// A column of a table of the query: `"player"."name"` when the
        /// query needs the qualifier.
        case qualifiedColumn(String, TableAliasBase)
        /// A value, bound as an argument.
        case value(DatabaseValue)
        /// Raw SQL, with its arguments.
        case literal(SQL)
        /// `-expr`, `~expr`.
        case unary(UnaryOperator, SQLExpression)
        /// `lhs < rhs`, `lhs - rhs`, …
        case binary(BinaryOperator, SQLExpression, SQLExpression)
        /// `lhs LIKE rhs [ESCAPE escape]`, `lhs NOT LIKE rhs`.
        case escapableBinary(EscapableBinaryOperator, SQLExpression, SQLExpression, escape: SQLExpression?)
        /// `a AND b AND c`, `a + b`: at least two operands.
        case associativeBinary(AssociativeBinaryOperator, [SQLExpression])
        /// `lhs = rhs`, `lhs <> rhs`, `lhs IS rhs`, `lhs IS NOT rhs`.
        case compare(EqualityOperator, SQLExpression, SQLExpression)
        /// `expr [NOT] IN (…)`.
        case inList(SQLExpression, [SQLExpression], isNegated: Bool)
        /// `expr [NOT] BETWEEN low AND high`.
        case between(SQLExpression, SQLExpression, SQLExpression, isNegated: Bool)
        /// `NOT expr`.
        case not(SQLExpression)
        /// `expr COLLATE name`.
        case collated(SQLExpression, String)
        /// `name(arguments)`.
        case function(String, [SQLExpression])
        /// `name([DISTINCT] arguments)`, an aggregate.
        case aggregate(String, [SQLExpression], isDistinct: Bool)
        /// `COUNT(*)`.
        case countAll
        /// `CAST(expr AS type)`.
        case cast(SQLExpression, String)
        /// `(SELECT …)`.
        case subquery(SQLSubquery)
        /// `expr [NOT] IN (SELECT …)`.
        case inSubquery(SQLExpression, SQLSubquery, isNegated: Bool)
        /// `[NOT] EXISTS (SELECT …)`.
        case exists(SQLSubquery, isNegated: Bool)
        /// `expr [NOT] IN table`: a common table expression.
        case inTable(SQLExpression, String, isNegated: Bool)
        /// Whether a row of a table was joined: its primary key (or rowid)
        /// is not NULL.
        case qualifiedExists(TableAliasBase, isNegated: Bool)
        /// The column that identifies the rows of a table: the column that
        /// aliases the rowid, the rowid, or a single-column primary key.
        case qualifiedFastPrimaryKey(TableAliasBase)
        /// The fast primary key of the table the expression is qualified
        /// with, for association aggregates.
        case fastPrimaryKey
        /// `count = 0`, or `count > 0` when negated: an association is empty.
        case isEmpty(SQLExpression, isNegated: Bool)
        /// `table MATCH pattern`: a full-text search of every column of
        /// the table.
        case tableMatch(TableAliasBase, SQLExpression)
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

    /// NULL.
    static let null = SQLExpression(.value(.null))

    /// Whether the expression is the NULL value.
    var isNull: Bool {
        if case .value(let dbValue) = impl { return dbValue.isNull }
        return false
    }

    /// `a AND b AND …`, or true for no expression.
    static func and(_ expressions: [SQLExpression]) -> SQLExpression {
        associativeBinary(.and, expressions)
    }

    /// `a OR b OR …`, or false for no expression.
    static func or(_ expressions: [SQLExpression]) -> SQLExpression {
        associativeBinary(.or, expressions)
    }
}

// MARK: - Operators

extension SQLExpression {
    /// A unary operator: `-`, `~`.
    struct UnaryOperator: Sendable {
        let sql: String
        static let minus = UnaryOperator(sql: "-")
        static let bitwiseNot = UnaryOperator(sql: "~")
    }

    /// A binary operator that is not associative.
    struct BinaryOperator: Sendable {
        let sql: String
        static let lessThan = BinaryOperator(sql: "<")
        static let lessThanOrEqual = BinaryOperator(sql: "<=")
        static let greaterThan = BinaryOperator(sql: ">")
        static let greaterThanOrEqual = BinaryOperator(sql: ">=")
        static let subtract = BinaryOperator(sql: "-")
        static let divide = BinaryOperator(sql: "/")
        static let leftShift = BinaryOperator(sql: "<<")
        static let rightShift = BinaryOperator(sql: ">>")
        static let glob = BinaryOperator(sql: "GLOB")
        static let match = BinaryOperator(sql: "MATCH")
    }

    /// `LIKE`, which accepts an `ESCAPE` clause, and its negation.
    struct EscapableBinaryOperator: Sendable {
        let sql: String
        let negatedSQL: String
        static let like = EscapableBinaryOperator(sql: "LIKE", negatedSQL: "NOT LIKE")

        var negated: EscapableBinaryOperator {
            EscapableBinaryOperator(sql: negatedSQL, negatedSQL: sql)
        }
    }

    /// An associative operator, for ``Swift/Sequence/joined(operator:)``:
    /// `[Column("a"), Column("b")].joined(operator: .add)` is `a + b`.
    public struct AssociativeBinaryOperator: Sendable, Equatable {
        let sql: String
        /// The value of an empty list of operands.
        let neutralValue: DatabaseValue
        /// Whether `a • (b • c)` is `a • b • c` (not for `+` and `*`,
        /// whose results depend on evaluation order with floats).
        let isStrictlyAssociative: Bool

        /// `+`
        public static let add = AssociativeBinaryOperator(sql: "+", neutralValue: 0.databaseValue, isStrictlyAssociative: false)
        /// `*`
        public static let multiply = AssociativeBinaryOperator(sql: "*", neutralValue: 1.databaseValue, isStrictlyAssociative: false)
        /// `AND`
        public static let and = AssociativeBinaryOperator(sql: "AND", neutralValue: true.databaseValue, isStrictlyAssociative: true)
        /// `OR`
        public static let or = AssociativeBinaryOperator(sql: "OR", neutralValue: false.databaseValue, isStrictlyAssociative: true)
        /// `||`: string concatenation.
        public static let concat = AssociativeBinaryOperator(sql: "||", neutralValue: "".databaseValue, isStrictlyAssociative: true)
        /// `&`
        public static let bitwiseAnd = AssociativeBinaryOperator(sql: "&", neutralValue: (-1).databaseValue, isStrictlyAssociative: true)
        /// `|`
        public static let bitwiseOr = AssociativeBinaryOperator(sql: "|", neutralValue: 0.databaseValue, isStrictlyAssociative: true)

        public static func == (lhs: Self, rhs: Self) -> Bool { lhs.sql == rhs.sql }
    }

    /// `=`, `<>`, `IS`, `IS NOT`.
    enum EqualityOperator: String, Sendable {
        case equal = "="
        case notEqual = "<>"
        case `is` = "IS"
        case isNot = "IS NOT"

        var negated: EqualityOperator {
            switch self {
            case .equal: return .notEqual
            case .notEqual: return .equal
            case .is: return .isNot
            case .isNot: return .is
            }
        }
    }

    static func unary(_ op: UnaryOperator, _ expression: SQLExpression) -> SQLExpression {
        SQLExpression(.unary(op, expression))
    }

    /// `lhs • rhs`. A collated operand moves its collation to the whole
    /// expression, as GRDB writes it: `a < b COLLATE NOCASE` rather than
    /// `(a COLLATE NOCASE) < b` (the comparison uses it either way).
    static func binary(_ op: BinaryOperator, _ lhs: SQLExpression, _ rhs: SQLExpression) -> SQLExpression {
        if case let .collated(lhs, collation) = lhs.impl {
            return collated(binary(op, lhs, rhs), collation)
        }
        if case let .collated(rhs, collation) = rhs.impl {
            return collated(binary(op, lhs, rhs), collation)
        }
        return SQLExpression(.binary(op, lhs, rhs))
    }

    /// `a • b • c`: operands of the same strictly associative operator are
    /// flattened, no operand is the neutral value, one operand is itself.
    static func associativeBinary(_ op: AssociativeBinaryOperator, _ expressions: [SQLExpression]) -> SQLExpression {
        var operands = expressions
        if op.isStrictlyAssociative {
            operands = expressions.flatMap { expression -> [SQLExpression] in
                if case let .associativeBinary(expressionOp, expressionOperands) = expression.impl, expressionOp == op {
                    return expressionOperands
                }
                return [expression]
            }
        }
        switch operands.count {
        case 0: return SQLExpression(.value(op.neutralValue))
        case 1: return operands[0]
        default: return SQLExpression(.associativeBinary(op, operands))
        }
    }

    /// `lhs op rhs`, collated as a whole when one side is collated:
    /// `"name" = 'x' COLLATE NOCASE` rather than `("name" COLLATE NOCASE) = 'x'`.
    static func compare(_ op: EqualityOperator, _ lhs: SQLExpression, _ rhs: SQLExpression) -> SQLExpression {
        if case let .collated(lhs, collation) = lhs.impl {
            return collated(compare(op, lhs, rhs), collation)
        }
        if case let .collated(rhs, collation) = rhs.impl {
            return collated(compare(op, lhs, rhs), collation)
        }
        return SQLExpression(.compare(op, lhs, rhs))
    }

    /// `lhs = rhs`, or `IS NULL` when one side is NULL.
    static func equal(_ lhs: SQLExpression, _ rhs: SQLExpression) -> SQLExpression {
        if rhs.isNull { return compare(.is, lhs, rhs) }
        if lhs.isNull { return compare(.is, rhs, lhs) }
        return compare(.equal, lhs, rhs)
    }

    /// `lhs <> rhs`, or `IS NOT NULL` when one side is NULL.
    static func notEqual(_ lhs: SQLExpression, _ rhs: SQLExpression) -> SQLExpression {
        if rhs.isNull { return compare(.isNot, lhs, rhs) }
        if lhs.isNull { return compare(.isNot, rhs, lhs) }
        return compare(.notEqual, lhs, rhs)
    }

    /// `expr BETWEEN low AND high`, collated as a whole when `expr` is.
    static func between(_ expression: SQLExpression, _ low: SQLExpression, _ high: SQLExpression,
                        isNegated: Bool = false) -> SQLExpression
    {
        if case let .collated(expression, collation) = expression.impl {
            return collated(between(expression, low, high, isNegated: isNegated), collation)
        }
        return SQLExpression(.between(expression, low, high, isNegated: isNegated))
    }

    /// `expr IN (…)`: false for no element, `expr = element` for one.
    static func isIn(_ expression: SQLExpression, _ elements: [SQLExpression]) -> SQLExpression {
        switch elements.count {
        case 0: return false.sqlExpression
        // `=`, not `IS`: the result is the one of `IN`, even for NULL.
        case 1: return compare(.equal, expression, elements[0])
        default: return SQLExpression(.inList(expression, elements, isNegated: false))
        }
    }

    /// `expr COLLATE name`. `IN` and `AND`/`OR` push the collation to their
    /// operands, so that `["a", "b"].contains(column).collating(.nocase)`
    /// compares with the collation.
    static func collated(_ expression: SQLExpression, _ collation: String) -> SQLExpression {
        switch expression.impl {
        case let .inList(element, list, isNegated):
            // SQLite uses the collation of the left operand of IN.
            return SQLExpression(.inList(collated(element, collation), list, isNegated: isNegated))
        case let .associativeBinary(op, operands):
            return SQLExpression(.associativeBinary(op, operands.map { collated($0, collation) }))
        default:
            return SQLExpression(.collated(expression, collation))
        }
    }

    /// The tests of `!expr`, `expr == true`, `expr == false`.
    enum BooleanTest {
        case `true`, `false`, falsey
    }

    /// The expression tested for truth, as GRDB writes it: `!(a = 1)` is
    /// `a <> 1`, `!(a IN …)` is `a NOT IN …`, `a LIKE b == false` is
    /// `(a LIKE b) = 0`, `!a` is `NOT a`.
    func `is`(_ test: BooleanTest) -> SQLExpression {
        let comparedWithTrue = SQLExpression(.compare(.equal, self, true.sqlExpression))
        let comparedWithFalse = SQLExpression(.compare(.equal, self, false.sqlExpression))
        switch impl {
        case .value(let dbValue):
            if dbValue.isNull { return self }
            if case .int64(let int64) = dbValue.storage, int64 == 0 || int64 == 1 {
                switch test {
                case .true: return (int64 == 1).sqlExpression
                case .false, .falsey: return (int64 == 0).sqlExpression
                }
            }
        case let .between(expression, low, high, isNegated) where test == .falsey:
            return SQLExpression(.between(expression, low, high, isNegated: !isNegated))
        case let .escapableBinary(op, lhs, rhs, escape) where test == .falsey:
            return SQLExpression(.escapableBinary(op.negated, lhs, rhs, escape: escape))
        case let .inList(expression, list, isNegated) where test == .falsey:
            return SQLExpression(.inList(expression, list, isNegated: !isNegated))
        case let .inSubquery(expression, subquery, isNegated) where test == .falsey:
            return SQLExpression(.inSubquery(expression, subquery, isNegated: !isNegated))
        case let .exists(subquery, isNegated) where test == .falsey:
            return SQLExpression(.exists(subquery, isNegated: !isNegated))
        case let .inTable(expression, table, isNegated) where test == .falsey:
            return SQLExpression(.inTable(expression, table, isNegated: !isNegated))
        case let .qualifiedExists(alias, isNegated) where test == .falsey:
            return SQLExpression(.qualifiedExists(alias, isNegated: !isNegated))
        case let .isEmpty(expression, isNegated):
            if test == .true { return self }
            return SQLExpression(.isEmpty(expression, isNegated: !isNegated))
        case let .compare(op, lhs, rhs) where test == .falsey:
            return SQLExpression(.compare(op.negated, lhs, rhs))
        case let .collated(expression, collation):
            return SQLExpression.collated(expression.is(test), collation)
        default:
            break
        }
        switch test {
        case .true: return comparedWithTrue
        case .false: return comparedWithFalse
        case .falsey: return SQLExpression(.not(self))
        }
    }
}

// MARK: - SQL generation

extension SQLExpression {
    /// The SQL of the expression, with its values appended to the
    /// arguments of `context`. With `wrappedInParenthesis`, a compound
    /// expression is parenthesized.
    func sql(_ context: SQLGenerationContext, wrappedInParenthesis: Bool = false) throws -> String {
        func wrapped(_ sql: String) -> String {
            wrappedInParenthesis ? "(" + sql + ")" : sql
        }
        switch impl {
        case .column(let name):
            return name.quotedDatabaseIdentifier
        case let .qualifiedColumn(name, alias):
            if let qualifier = context.qualifier(for: alias) {
                return qualifier.quotedDatabaseIdentifier + "." + name.quotedDatabaseIdentifier
            }
            return name.quotedDatabaseIdentifier
        case .value(let dbValue):
            if dbValue.isNull { return "NULL" }
            if context.inlinesValues { return dbValue.sqlLiteral }
            context.arguments.values.append(dbValue)
            return "?"
        case .literal(let literal):
            return wrapped(try literal.sql(context))
        case let .unary(op, operand):
            return wrapped(op.sql + (try operand.sql(context, wrappedInParenthesis: true)))
        case let .binary(op, lhs, rhs):
            return wrapped(try lhs.sql(context, wrappedInParenthesis: true) + " " + op.sql + " "
                + rhs.sql(context, wrappedInParenthesis: true))
        case let .escapableBinary(op, lhs, rhs, escape):
            var sql = try lhs.sql(context, wrappedInParenthesis: true) + " " + op.sql + " "
                + rhs.sql(context, wrappedInParenthesis: true)
            if let escape { sql += " ESCAPE " + (try escape.sql(context, wrappedInParenthesis: true)) }
            return wrapped(sql)
        case let .associativeBinary(op, operands):
            return wrapped(try operands
                .map { try $0.sql(context, wrappedInParenthesis: true) }
                .joined(separator: " " + op.sql + " "))
        case let .compare(op, lhs, rhs):
            return wrapped(try lhs.sql(context, wrappedInParenthesis: true) + " " + op.rawValue + " "
                + rhs.sql(context, wrappedInParenthesis: true))
        case let .inList(expression, list, isNegated):
            let items = try list.map { try $0.sql(context) }.joined(separator: ", ")
            return wrapped(try expression.sql(context, wrappedInParenthesis: true)
                + (isNegated ? " NOT IN (" : " IN (") + items + ")")
        case let .between(expression, low, high, isNegated):
            return wrapped(try expression.sql(context, wrappedInParenthesis: true)
                + (isNegated ? " NOT BETWEEN " : " BETWEEN ")
                + low.sql(context, wrappedInParenthesis: true) + " AND "
                + high.sql(context, wrappedInParenthesis: true))
        case .not(let expression):
            return wrapped("NOT " + (try expression.sql(context, wrappedInParenthesis: true)))
        case let .collated(expression, collation):
            return wrapped(try expression.sql(context) + " COLLATE " + collation)
        case let .function(name, arguments):
            return name + "(" + (try arguments.map { try $0.sql(context) }.joined(separator: ", ")) + ")"
        case let .aggregate(name, arguments, isDistinct):
            let list = try arguments.map { try $0.sql(context) }.joined(separator: ", ")
            return name + "(" + (isDistinct ? "DISTINCT " : "") + list + ")"
        case .countAll:
            return "COUNT(*)"
        case let .cast(expression, type):
            return "CAST(" + (try expression.sql(context)) + " AS " + type + ")"
        case .subquery(let subquery):
            return "(" + (try subquery.sql(context)) + ")"
        case let .inSubquery(expression, subquery, isNegated):
            return wrapped(try expression.sql(context, wrappedInParenthesis: true)
                + (isNegated ? " NOT IN (" : " IN (") + subquery.sql(context) + ")")
        case let .exists(subquery, isNegated):
            return wrapped((isNegated ? "NOT EXISTS (" : "EXISTS (") + (try subquery.sql(context)) + ")")
        case let .inTable(expression, table, isNegated):
            return wrapped(try expression.sql(context, wrappedInParenthesis: true)
                + (isNegated ? " NOT IN " : " IN ") + table.quotedDatabaseIdentifier)
        case let .qualifiedExists(alias, isNegated):
            let columns = try context.db.existenceCheckColumns(in: alias.tableName)
                .map { SQLExpression(.qualifiedColumn($0, alias)) }
            let expression = isNegated
                ? SQLExpression.and(columns.map { .compare(.is, $0, .null) })
                : SQLExpression.or(columns.map { .compare(.isNot, $0, .null) })
            return try expression.sql(context, wrappedInParenthesis: wrappedInParenthesis)
        case .fastPrimaryKey:
            preconditionFailure("the primary key of an aggregate is qualified with the table of its association")
        case .qualifiedFastPrimaryKey(let alias):
            let columns = try context.db.existenceCheckColumns(in: alias.tableName)
            guard columns.count == 1 else {
                throw DatabaseError(
                    resultCode: .SQLITE_MISUSE,
                    message: "table \(alias.tableName) has a composite primary key and no rowid: it can not be counted through an association")
            }
            return try SQLExpression(.qualifiedColumn(columns[0], alias)).sql(context)
        case let .isEmpty(expression, isNegated):
            return wrapped(try expression.sql(context, wrappedInParenthesis: true) + (isNegated ? " > 0" : " = 0"))
        case let .tableMatch(alias, pattern):
            return wrapped(context.resolvedName(for: alias).quotedDatabaseIdentifier + " MATCH "
                + (try pattern.sql(context, wrappedInParenthesis: true)))
        }
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
    public var sqlOrdering: SQLOrdering { SQLOrdering(sqlExpression, .unspecified) }

    /// `expr AS key`, in a selection: `Column("score").forKey("points")`.
    public func forKey(_ key: String) -> SQLSelection {
        SQLSelection(.aliased(sqlExpression, key))
    }

    /// `expr AS key`, with the name of a coding key.
    public func forKey(_ key: some CodingKey) -> SQLSelection {
        forKey(key.stringValue)
    }
}

extension SQLExpression: SQLSpecificExpressible {
    public var sqlExpression: SQLExpression { self }
}

extension DatabaseValue: SQLSpecificExpressible {
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

// MARK: - Joining expressions

extension Sequence where Element: SQLExpressible {
    /// The elements joined by an associative operator:
    /// `[Column("a"), Column("b")].joined(operator: .and)` is `a AND b`; an
    /// empty sequence gives the neutral value of the operator.
    public func joined(operator: SQLExpression.AssociativeBinaryOperator) -> SQLExpression {
        SQLExpression.associativeBinary(`operator`, map(\.sqlExpression))
    }
}

extension Sequence where Element == any SQLExpressible {
    /// The elements joined by an associative operator.
    public func joined(operator: SQLExpression.AssociativeBinaryOperator) -> SQLExpression {
        SQLExpression.associativeBinary(`operator`, map(\.sqlExpression))
    }
}

extension Sequence where Element == any SQLSpecificExpressible {
    /// The elements joined by an associative operator.
    public func joined(operator: SQLExpression.AssociativeBinaryOperator) -> SQLExpression {
        SQLExpression.associativeBinary(`operator`, map(\.sqlExpression))
    }
}
