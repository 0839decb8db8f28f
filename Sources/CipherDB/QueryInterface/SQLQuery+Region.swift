// The region of a query interface request, beyond what its SQL tells
// SQLite's authorizer: the rows its filter allows, and the tables of its
// prefetched associations (``RequestRegion``). GRDB computes the same.

extension SQLQuery {
    /// The rowids of its table that the query's filter allows, or nil
    /// when the filter does not restrict rowids.
    func identifyingRowIDs(_ db: Database) throws -> Set<Int64>? {
        guard let filter = try filterExpression(db),
              try db.tableExists(tableName) // not a view or a common table expression
        else { return nil }
        return try filter.identifyingRowIDs(db, for: alias)
    }
}

extension SQLExpression {
    /// The rowids of the table of `alias` that a filter allows, or nil when
    /// the filter does not restrict rowids: `id = 1` and `id IN (1, 2)`
    /// allow their values (`id` aliasing the rowid), `a AND b` the rows both
    /// allow, `a OR b` the rows either allows, and `NULL` or `0` no row.
    ///
    /// Where the rows cannot be known for sure, the answer is nil, so that
    /// an observation never misses a change: `rowid = '1'` (SQLite compares
    /// it as a number) or `rowid = 1.5`.
    func identifyingRowIDs(_ db: Database, for alias: TableAliasBase) throws -> Set<Int64>? {
        switch impl {
        case .value(let dbValue):
            return dbValue.isNull || dbValue == false.databaseValue ? [] : nil
        case let .associativeBinary(op, operands) where op == .and:
            var result: Set<Int64>?
            for operand in operands {
                guard let rowIDs = try operand.identifyingRowIDs(db, for: alias) else { continue }
                result = result?.intersection(rowIDs) ?? rowIDs
            }
            return result
        case let .associativeBinary(op, operands) where op == .or:
            var result: Set<Int64> = []
            for operand in operands {
                guard let rowIDs = try operand.identifyingRowIDs(db, for: alias) else { return nil }
                result.formUnion(rowIDs)
            }
            return result
        case let .inList(expression, list, isNegated: false):
            guard try expression.isRowID(db, for: alias) else { return nil }
            var result: Set<Int64> = []
            for element in list {
                guard let rowIDs = element.rowIDsOfValue else { return nil }
                result.formUnion(rowIDs)
            }
            return result
        case let .compare(op, lhs, rhs) where op == .equal || op == .is:
            if try lhs.isRowID(db, for: alias) { return rhs.rowIDsOfValue }
            if try rhs.isRowID(db, for: alias) { return lhs.rowIDsOfValue }
            return nil
        case let .collated(expression, _):
            return try expression.identifyingRowIDs(db, for: alias)
        default:
            return nil
        }
    }

    /// The rowids equal to this expression: none for NULL, one for an
    /// integer, nil (unknown) for anything else.
    private var rowIDsOfValue: Set<Int64>? {
        guard case .value(let dbValue) = impl else { return nil }
        switch dbValue.storage {
        case .null: return []
        case .int64(let rowID): return [rowID]
        default: return nil
        }
    }

    /// Whether the expression is the rowid of the table of `alias`, by any
    /// of its names.
    private func isRowID(_ db: Database, for alias: TableAliasBase) throws -> Bool {
        guard let column = try column(db, for: alias) else { return false }
        let primaryKey = try db.primaryKey(alias.tableName)
        if let rowIDColumn = primaryKey.rowIDColumn, rowIDColumn.lowercased() == column.lowercased() { return true }
        return primaryKey.tableHasRowID && ["rowid", "oid", "_rowid_"].contains(column.lowercased())
    }
}
