// The refinements of a query, shared by requests and associations: each
// one returns a new query.

extension SQLQuery {
    func selectWhenConnected(_ selection: @escaping @Sendable (Database) throws -> [any SQLSelectable]) -> SQLQuery {
        var query = self
        query.selection = { db in try selection(db).map(\.sqlSelection) }
        return query
    }

    func annotatedWhenConnected(with selection: @escaping @Sendable (Database) throws -> [any SQLSelectable]) -> SQLQuery {
        var query = self
        let currentSelection = self.selection
        query.selection = { db in try currentSelection(db) + selection(db).map(\.sqlSelection) }
        return query
    }

    func filterWhenConnected(_ predicate: @escaping @Sendable (Database) throws -> any SQLExpressible) -> SQLQuery {
        var query = self
        query.filters.append { db in try predicate(db).sqlExpression }
        return query
    }

    func orderWhenConnected(_ orderings: @escaping @Sendable (Database) throws -> [any SQLOrderingTerm]) -> SQLQuery {
        var query = self
        query.orderings = { db in try orderings(db).map(\.sqlOrdering) }
        query.isReversed = false
        return query
    }

    func reversed() -> SQLQuery {
        var query = self
        query.isReversed.toggle()
        return query
    }

    func unordered() -> SQLQuery {
        var query = self
        query.orderings = nil
        query.isReversed = false
        query.joins = joins.map { join in
            var join = join
            join.query = join.query.unordered()
            return join
        }
        return query
    }

    /// The current order, then the primary key (not the rowid: rowids can
    /// change on VACUUM), or, without one (a view that the schema source
    /// does not describe), all the selected columns by position, as GRDB
    /// does: `ORDER BY 1, 2, 3`.
    func withStableOrder() -> SQLQuery {
        var query = self
        let currentOrderings = orderings
        let (tableName, selection, alias, ctes) = (self.tableName, self.selection, self.alias, commonTableExpressions)
        // The primary key is reversed with the other orderings when the
        // query is reversed (see `effectiveOrderings`).
        query.orderings = { db in
            let stableOrderings: [SQLOrdering]
            do {
                stableOrderings = try db.primaryKey(tableName).columns.map { SQLOrdering(.column($0), .unspecified) }
            } catch {
                let tables = SelectedTables(db: db, commonTableExpressions: ctes)
                let columnCount = try selection(db).columnCount(tables, alias: alias)
                stableOrderings = (1...max(columnCount, 1)).map { SQLOrdering(literal: SQL(sql: String($0))) }
            }
            return try (currentOrderings?(db) ?? []) + stableOrderings
        }
        query.joins = joins.map { join in
            var join = join
            join.query = join.query.withStableOrder()
            return join
        }
        return query
    }

    func groupWhenConnected(_ expressions: @escaping @Sendable (Database) throws -> [any SQLExpressible]) -> SQLQuery {
        var query = self
        query.groups = { db in try expressions(db).map(\.sqlExpression) }
        return query
    }

    func havingWhenConnected(_ predicate: @escaping @Sendable (Database) throws -> any SQLExpressible) -> SQLQuery {
        var query = self
        query.havings.append { db in try predicate(db).sqlExpression }
        return query
    }
}
