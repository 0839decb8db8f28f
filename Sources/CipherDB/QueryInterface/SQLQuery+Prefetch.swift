// The associations of `including(all:)` are fetched after the rows of the
// request, with one more statement per association: the rows of the
// destination whose pivot columns hold the keys of the fetched rows. SQLite
// 3.15.2 has no window functions: each prefetched row carries the keys of
// its pivot in extra `grdb_`-prefixed columns, by which it is given to its
// origin rows.
//
// ```swift
// // SELECT * FROM author
// // SELECT *, authorId AS grdb_authorId FROM book WHERE authorId IN (1, 2, 3)
// let request = Author.including(all: Author.books)
//
// // SELECT country.*, passport.citizenId AS grdb_citizenId FROM country
// // JOIN passport ON passport.countryCode = country.code AND passport.citizenId IN (1, 2, 3)
// let request = Citizen.including(all: Citizen.countries)
// ```

extension SQLQuery {
    /// The associations prefetched by `including(all:)`, here and under
    /// the tables joined to this one (`including(required: A.b.including(all: B.cs))`),
    /// each one starting from the table of this query. Their key paths are
    /// the keys of ``Row/prefetchedRows``.
    var prefetchedAssociations: [_SQLAssociation] {
        joins.flatMap { join -> [_SQLAssociation] in
            switch join.kind {
            case .all:
                return [_SQLAssociation(key: .fixed(join.key), condition: join.condition, query: join.query, isToMany: true)]
            case .required, .optional, .bridge:
                return join.query.prefetchedAssociations.map { association in
                    // The joined table leads to the association: the fetch of
                    // the association joins it back, without its own join to
                    // the association.
                    var query = join.query
                    query.joins.removeAll { $0.key == association.steps[0].keyName }
                    let step = _SQLAssociation(
                        key: .fixed(join.key), condition: join.condition, query: query, isToMany: join.kind == .bridge)
                    return association.through(step)
                }
            }
        }
    }

    /// Fetches the rows of the prefetched associations of `rows`, the rows
    /// of this query, and stores them in their ``Row/prefetchedRows``: an
    /// empty array for a row without associated rows. `willFetch` is told
    /// of each request before it runs.
    func prefetch(
        _ db: Database, associations: [_SQLAssociation], into rows: [Row],
        willFetch: WillFetchSupplementaryRequest?) throws
    {
        guard let firstRow = rows.first else { return }
        for association in associations {
            let pivot = association.steps[0]
            let pairs = try pivot.condition.columnPairs(db, origin: tableName, destination: pivot.query.tableName)
            let originIndexes = try pairs.map { pair in
                guard let index = firstRow.index(forColumn: pair.origin) else {
                    throw DatabaseError(
                        resultCode: .SQLITE_MISUSE,
                        message: "column \(pair.origin) is not selected: it is needed to prefetch \(association.keyPath.joined(separator: "."))")
                }
                return index
            }
            let request = prefetchRequest(for: association, pivotColumns: pairs.map(\.destination), originRows: rows,
                                          originIndexes: originIndexes)
            try willFetch?(request, association.keyPath)
            let prefetchedRows = try Row.fetchAll(db, request)
            let groups = Self.group(prefetchedRows, byColumns: pairs.map { "grdb_" + $0.destination })
            for row in rows {
                let key = originIndexes.map { row.databaseValue(atUncheckedIndex: $0) }
                row.prefetchedRows.setRows(groups[key] ?? [], forKeyPath: association.keyPath)
            }
        }
    }

    /// The region of the statement that prefetches `association`: its
    /// pivot is filtered by a key made up, so that its pivot columns are
    /// in the region.
    func prefetchedRegion(_ db: Database, of association: _SQLAssociation) throws -> DatabaseRegion {
        let pivot = association.steps[0]
        let pivotColumns = try pivot.condition.columnPairs(db, origin: tableName, destination: pivot.query.tableName)
            .map(\.destination)
        let pivotFilter = SQLExpression.and(pivotColumns.map { .compare(.equal, .column($0), 1.sqlExpression) })
        let query = association.prefetchQuery(pivotFilter: pivotFilter, pivotColumns: pivotColumns, base: nil)
        return try QueryInterfaceRequest<Row>(query: query).databaseRegion(db)
    }

    /// The request of the rows of `association` for the rows of this query,
    /// with the `grdb_`-prefixed pivot columns.
    ///
    /// With one pivot column, the keys of the rows are given by value:
    /// `pivot.authorId IN (1, 2, 3)`, without NULL (a NULL foreign key
    /// refers to no row). With several, this query is a common table
    /// expression: `WITH grdb_base AS (SELECT a, b FROM parent) … WHERE
    /// (child.a, child.b) IN grdb_base`, because a list of `(a = ? AND
    /// b = ?) OR …` would exceed SQLite's limit of expression depth for
    /// many rows.
    private func prefetchRequest(
        for association: _SQLAssociation, pivotColumns: [String], originRows: [Row], originIndexes: [Int])
        -> QueryInterfaceRequest<Row>
    {
        let pivotFilter: SQLExpression
        var base: SQLCTE?
        if pivotColumns.count == 1 {
            var keys = Set(originRows.map { $0.databaseValue(atUncheckedIndex: originIndexes[0]) })
            keys.remove(.null)
            pivotFilter = .isIn(.column(pivotColumns[0]), keys.sorted(by: DatabaseValue.sqliteOrder).map { $0.sqlExpression })
        } else {
            // The order of the origin rows matters only for a limit.
            var baseQuery = limit == nil ? unordered() : self
            let originColumns = originIndexes.map { originRows[0].columnNames[$0] }
            baseQuery.selection = { _ in originColumns.map { SQLSelection(.expression(.column($0))) } }
            baseQuery.isDistinct = false
            baseQuery.joins = baseQuery.unselectedJoins
            let cte = SQLCTE(recursive: false, named: "grdb_base", columns: nil, subquery: SQLSubquery(impl: .query(baseQuery)))
            pivotFilter = SQLExpression(.inTable(.rowValue(pivotColumns.map { .column($0) }), cte.tableName, isNegated: false))
            base = cte
        }
        return QueryInterfaceRequest(query: association.prefetchQuery(pivotFilter: pivotFilter, pivotColumns: pivotColumns, base: base))
    }

    /// The rows grouped by the values of the columns.
    private static func group(_ rows: [Row], byColumns columns: [String]) -> [[DatabaseValue]: [Row]] {
        guard let firstRow = rows.first else { return [:] }
        // The columns are the annotations of the prefetch request.
        let indexes = columns.map { firstRow.index(forColumn: $0)! }
        return Dictionary(grouping: rows) { row in indexes.map { row.databaseValue(atUncheckedIndex: $0) } }
    }
}

extension _SQLAssociation {
    /// The query of the rows of a prefetched association: its destination,
    /// joined back to its pivot, filtered by `pivotFilter`, and annotated
    /// with the pivot columns, as `grdb_column`.
    ///
    /// The pivot gets an alias of its own, so that the annotation refers
    /// to it wherever the destination query puts it.
    func prefetchQuery(pivotFilter: SQLExpression, pivotColumns: [String], base: SQLCTE?) -> SQLQuery {
        var association = self
        var pivotQuery = association.steps[0].query
        if pivotQuery.alias.isImplicit {
            pivotQuery = pivotQuery.aliased(TableAlias<Void>())
        }
        let pivotAlias = pivotQuery.alias
        pivotQuery.filters.append { _ in pivotFilter }
        association.steps[0].query = pivotQuery
        var query = association.destinationQuery()
        let annotations = pivotColumns.map { pivotAlias[$0].forKey("grdb_" + $0) }
        query = query.annotatedWhenConnected { _ in annotations }
        if let base { query = query.with(base) }
        return query
    }
}

extension SQLExpression {
    /// `(a, b)`: a row value (SQLite 3.15), written as a call of no
    /// function.
    static func rowValue(_ elements: [SQLExpression]) -> SQLExpression {
        SQLExpression(.function("", elements))
    }
}

extension DatabaseValue {
    /// SQLite's order of values of different types: NULL, numbers, text,
    /// blobs (text compared byte by byte, as the BINARY collation does).
    static func sqliteOrder(_ lhs: DatabaseValue, _ rhs: DatabaseValue) -> Bool {
        switch (lhs.storage, rhs.storage) {
        case let (.int64(lhs), .int64(rhs)): return lhs < rhs
        case let (.double(lhs), .double(rhs)): return lhs < rhs
        case let (.int64(lhs), .double(rhs)): return Double(lhs) < rhs
        case let (.double(lhs), .int64(rhs)): return lhs < Double(rhs)
        case let (.string(lhs), .string(rhs)): return lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
        case let (.blob(lhs), .blob(rhs)): return lhs.lexicographicallyPrecedes(rhs)
        default: return lhs.storageRank < rhs.storageRank
        }
    }

    private var storageRank: Int {
        switch storage {
        case .null: return 0
        case .int64, .double: return 1
        case .string: return 2
        case .blob: return 3
        }
    }
}
