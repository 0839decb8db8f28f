// `fetchOne` adds `LIMIT 1` to a query, unless the query can only return
// one row: a filter on a unique key (`WHERE id = 1`), or aggregates
// without grouping (`SELECT MAX(score)`). GRDB writes the same SQL.

extension SQLQuery {
    /// Whether the query returns at most one row, whatever the content of
    /// the database.
    func expectsSingleResult(_ db: Database) throws -> Bool {
        if !statementJoins.isEmpty { return false }
        if let filter = try filterExpression(db), try db.tableExists(tableName) {
            let columns = try filter.identifyingColumns(db, for: alias)
            if try db.table(tableName, hasUniqueKey: columns) { return true }
        }
        let groups = try groups?(db) ?? []
        return try groups.isEmpty && selection(db).contains(where: \.isAggregate)
    }

    /// Whether each group holds one row: the query groups by columns of
    /// its table (or by bijections of them, such as `-id`) that contain a
    /// unique key. Rows of views are never known to be unique.
    func groupsRowsByUniqueKey(_ db: Database, groups: [SQLExpression]) throws -> Bool {
        guard try db.tableExists(tableName) else { return false }
        var columns: Set<String> = []
        for group in groups {
            guard let column = try group.qualified(with: alias).column(db, for: alias, acceptsBijection: true) else {
                return false
            }
            columns.insert(column)
        }
        return try db.table(tableName, hasUniqueKey: columns)
    }
}

extension SQLSelection {
    /// Whether the selection is an aggregate: `MAX(score)`, `COUNT(*)`.
    var isAggregate: Bool {
        switch impl {
        case .expression(let expression), .aliased(let expression, _):
            return expression.isAggregate
        case .allColumns, .qualifiedAllColumns, .allColumnsExcluding, .qualifiedAllColumnsExcluding, .literal:
            return false
        }
    }
}

extension SQLExpression {
    /// Whether the expression contains an aggregate that makes a query
    /// without `GROUP BY` return one row.
    var isAggregate: Bool {
        switch impl {
        case .aggregate, .countAll:
            return true
        case .isEmpty(let expression, _):
            return expression.isAggregate
        case .associativeBinary(_, let operands):
            return operands.contains(where: \.isAggregate)
        case let .binary(_, lhs, rhs), let .compare(_, lhs, rhs):
            return lhs.isAggregate || rhs.isAggregate
        case let .unary(_, expression), let .not(expression), let .collated(expression, _),
             let .between(expression, _, _, _):
            return expression.isAggregate
        case let .inList(expression, list, _):
            return expression.isAggregate || list.contains(where: \.isAggregate)
        default:
            return false
        }
    }

    /// Whether the expression has one value for the whole query: values
    /// and operations on values.
    var isConstantInRequest: Bool {
        switch impl {
        case .value:
            return true
        case .associativeBinary(_, let operands):
            return operands.allSatisfy(\.isConstantInRequest)
        case let .binary(_, lhs, rhs), let .compare(_, lhs, rhs):
            return lhs.isConstantInRequest && rhs.isConstantInRequest
        case let .unary(_, expression), let .not(expression), let .collated(expression, _),
             let .cast(expression, _):
            return expression.isConstantInRequest
        default:
            return false
        }
    }

    /// The columns of the table of `alias` that the expression sets to one
    /// value: `a = 1 AND b = 2` sets `a` and `b`; `a = 1 OR a = 2` none.
    func identifyingColumns(_ db: Database, for alias: TableAliasBase) throws -> Set<String> {
        switch impl {
        case let .associativeBinary(op, operands) where op == .and:
            return try operands.reduce(into: []) { try $0.formUnion($1.identifyingColumns(db, for: alias)) }
        case let .compare(op, lhs, rhs) where op == .equal || op == .is:
            if let column = try lhs.column(db, for: alias), rhs.isConstantInRequest { return [column] }
            if let column = try rhs.column(db, for: alias), lhs.isConstantInRequest { return [column] }
            return []
        case let .collated(expression, _):
            return try expression.identifyingColumns(db, for: alias)
        default:
            return []
        }
    }

    /// The column of the table of `alias` that the expression is, with
    /// the rowid named as the column that aliases it. With
    /// `acceptsBijection`, also the column of `-column`.
    func column(_ db: Database, for alias: TableAliasBase, acceptsBijection: Bool = false) throws -> String? {
        let name: String
        switch impl {
        case .column(let columnName): name = columnName
        case let .qualifiedColumn(columnName, columnAlias) where columnAlias == alias: name = columnName
        case let .unary(op, expression) where acceptsBijection && op.sql == SQLExpression.UnaryOperator.minus.sql:
            return try expression.column(db, for: alias, acceptsBijection: true)
        case let .collated(expression, _):
            return try expression.column(db, for: alias, acceptsBijection: acceptsBijection)
        default: return nil
        }
        if ["rowid", "oid", "_rowid_"].contains(name.lowercased()),
           let rowIDColumn = try db.primaryKey(alias.tableName).rowIDColumn
        {
            return rowIDColumn
        }
        return name
    }
}
