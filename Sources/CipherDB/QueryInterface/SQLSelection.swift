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
        /// The columns of the table but some (lowercased names).
        case allColumnsExcluding(Set<String>)
        case qualifiedAllColumnsExcluding(TableAliasBase, Set<String>)
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
        case .allColumnsExcluding:
            // Selections are qualified with the table of their query
            // before SQL is generated.
            preconditionFailure("allColumns(excluding:) is only available in query interface requests")
        case let .qualifiedAllColumnsExcluding(alias, excludedColumns):
            let columns = try context.db.columns(in: alias.tableName)
            let selected = columns.filter { !excludedColumns.contains($0.name.lowercased()) }
            // Excluding no column of the table is selecting them all, as
            // GRDB writes it.
            if selected.count == columns.count {
                return try SQLSelection(.qualifiedAllColumns(alias)).sql(context)
            }
            return try selected
                .map { try SQLExpression(.qualifiedColumn($0.name, alias)).sql(context) }
                .joined(separator: ", ")
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
        case .allColumns, .qualifiedAllColumns, .allColumnsExcluding, .qualifiedAllColumnsExcluding, .literal:
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

extension SQLSelectable where Self == AllColumns {
    /// `*`: `Player.select(.allColumns, Column("score") * 2)`.
    public static var allColumns: AllColumns { AllColumns() }
}

/// All columns of the table but some:
/// `Player.select(.allColumns(excluding: ["secret"]))`.
///
/// The columns are read from the schema when the request runs.
public struct AllColumnsExcluding: SQLSelectable, Sendable {
    /// The lowercased names of the excluded columns.
    let excludedColumns: Set<String>

    public init(_ excludedColumns: some Collection<String>) {
        self.excludedColumns = Set(excludedColumns.map { $0.lowercased() })
    }

    public var sqlSelection: SQLSelection { SQLSelection(.allColumnsExcluding(excludedColumns)) }
}

extension SQLSelectable where Self == AllColumnsExcluding {
    /// All columns but `excludedColumns`.
    public static func allColumns(excluding excludedColumns: some Collection<String>) -> Self {
        AllColumnsExcluding(excludedColumns)
    }

    /// All columns but `excludedColumns`.
    public static func allColumns(excluding excludedColumns: some Collection<any ColumnExpression>) -> Self {
        AllColumnsExcluding(excludedColumns.map(\.name))
    }
}

// MARK: - Counting

extension SQLSelection {
    /// How `fetchCount` counts the rows of a query that selects this one
    /// value.
    enum Count {
        /// `SELECT COUNT(*) FROM …`.
        case all
        /// `SELECT COUNT(DISTINCT expression) FROM …`.
        case distinct(SQLExpression)
    }

    /// How to count a query that selects only this value, or nil when the
    /// query must be counted as a subquery: `SELECT COUNT(*) FROM (…)`.
    func count(distinct: Bool) -> Count? {
        switch impl {
        case .allColumns, .allColumnsExcluding:
            // Distinct rows of several columns cannot be counted directly.
            return distinct ? nil : .all
        case .qualifiedAllColumns, .qualifiedAllColumnsExcluding, .literal:
            return nil
        case .expression(let expression), .aliased(let expression, _):
            return distinct ? .distinct(expression) : .all
        }
    }

    /// Whether a query that selects this value among others must be counted
    /// as a subquery: an alias may be used by the `WHERE` clause
    /// (`SELECT *, name AS alt FROM player WHERE alt`), and SQL is opaque.
    var requiresSubqueryCount: Bool {
        switch impl {
        case .aliased, .literal: return true
        case .allColumns, .qualifiedAllColumns, .allColumnsExcluding, .qualifiedAllColumnsExcluding, .expression: return false
        }
    }
}
