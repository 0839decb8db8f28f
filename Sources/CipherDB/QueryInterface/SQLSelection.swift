/// An element of a `SELECT` clause.
///
/// ```swift
/// Player.select(Column("name"), (Column("score") * 2).forKey("doubled"))
/// ```
public struct SQLSelection: Sendable {
    enum Impl: Sendable {
        case allColumns
        case expression(SQLExpression)
        case literal(SQL)
    }

    let impl: Impl

    init(_ impl: Impl) {
        self.impl = impl
    }

    func sql(_ context: SQLGenerationContext) throws -> String {
        switch impl {
        case .allColumns: return "*"
        case .expression(let expression): return try expression.sql(context)
        case .literal(let literal): return try literal.sql(context)
        }
    }
}

/// A type that can be selected: expressions, columns, ``AllColumns``.
public protocol SQLSelectable {
    var sqlSelection: SQLSelection { get }
}

extension SQLSelection: SQLSelectable {
    public var sqlSelection: SQLSelection { self }
}

/// `*`: all columns of the table.
public struct AllColumns: SQLSelectable, Sendable {
    public init() {}
    public var sqlSelection: SQLSelection { SQLSelection(.allColumns) }
}
