/// An element of a `SELECT` clause.
///
/// ```swift
/// Player.select(Column("name"), (Column("score") * 2).forKey("doubled"))
/// ```
public struct SQLSelection: Sendable {
    enum Impl: Sendable {
        case allColumns
        /// `table.*`, or `*` when the query needs no qualifier.
        case qualifiedAllColumns(TableAliasBase)
        case expression(SQLExpression)
        /// `expr AS alias`.
        case aliased(SQLExpression, String)
        case literal(SQL)
    }

    let impl: Impl

    init(_ impl: Impl) {
        self.impl = impl
    }

    func sql(_ context: SQLGenerationContext) throws -> String {
        switch impl {
        case .allColumns: return "*"
        case .qualifiedAllColumns(let alias):
            if let qualifier = context.qualifier(for: alias) {
                return qualifier.quotedDatabaseIdentifier + ".*"
            }
            return "*"
        case .expression(let expression): return try expression.sql(context)
        case let .aliased(expression, alias): return try expression.sql(context) + " AS " + alias.quotedDatabaseIdentifier
        case .literal(let literal): return try literal.sql(context)
        }
    }
}

/// A type that can be selected: expressions, columns, ``AllColumns``.
public protocol SQLSelectable {
    var sqlSelection: SQLSelection { get }
}

extension SQLSelection {
    /// `selection AS key`: `Column("score").forKey("points")`, or an alias of
    /// an aliased selection. `*` and SQL literals keep no alias.
    public func forKey(_ key: String) -> SQLSelection {
        switch impl {
        case .expression(let expression), .aliased(let expression, _):
            return SQLSelection(.aliased(expression, key))
        case .allColumns, .qualifiedAllColumns, .literal:
            return self
        }
    }
}

extension SQLSelection: SQLSelectable {
    public var sqlSelection: SQLSelection { self }
}

/// `*`: all columns of the table.
public struct AllColumns: SQLSelectable, Sendable {
    public init() {}
    public var sqlSelection: SQLSelection { SQLSelection(.allColumns) }
}
