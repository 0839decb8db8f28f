/// The parts of a `SELECT` query built by ``QueryInterfaceRequest``, and by
/// associations for the tables they join.
///
/// Every clause may need the database to be built (the primary key of
/// `filter(key:)`, the stable order of `withStableOrder()`, the requirements of
/// `filterWhenConnected`): clauses are stored as functions of the database,
/// and evaluated when the request runs. Their columns are qualified with the
/// query's table alias then, so that a query that joins other tables
/// generates `"book"."title"` where a query of one table has `"title"`.
struct SQLQuery: Sendable {
    typealias Promise<Value> = @Sendable (Database) throws -> Value

    var alias: TableAliasBase
    var selection: Promise<[SQLSelection]>
    var isDistinct = false
    var filters: [Promise<SQLExpression>] = []
    var groups: Promise<[SQLExpression]>?
    var havings: [Promise<SQLExpression>] = []
    var orderings: Promise<[SQLOrdering]>?
    var isReversed = false
    var limit: Int?
    var offset: Int?
    /// The tables joined by associations, and the associations prefetched
    /// by `including(all:)`, in the order they were added.
    var joins: [SQLJoin] = []
    /// The common table expressions of the `WITH` clause, by name.
    var ctes: [SQLCTE] = []

    init(tableName: String, selection: [SQLSelection]) {
        alias = TableAlias<Void>(tableName: tableName)
        self.selection = { _ in selection }
    }

    var tableName: String { alias.tableName }

    /// The query, on the table of `alias`.
    func aliased(_ alias: TableAliasBase) -> SQLQuery {
        alias.attach(to: tableName)
        // A query aliased already keeps its alias, which `alias` then
        // stands for: both name the one table (`matching` aliases the
        // request it filters, whatever name the user gave it).
        guard alias.root !== self.alias.root else { return self }
        if !self.alias.isImplicit {
            alias.becomeProxy(of: self.alias)
            return self
        }
        var query = self
        query.alias = alias
        return query
    }

    /// The clauses of the query, evaluated for one execution.
    private struct Clauses {
        var groups: [SQLExpression]
        var havings: [SQLExpression]
        var orderings: [SQLOrdering]
    }

    private func clauses(_ db: Database) throws -> Clauses {
        try Clauses(
            groups: (groups?(db) ?? []).map { $0.qualified(with: alias) },
            havings: havings.map { try $0(db).qualified(with: alias) },
            orderings: allOrderings(db))
    }

    // MARK: - SELECT

    /// `SELECT … FROM … JOIN … WHERE … GROUP BY … HAVING … ORDER BY … LIMIT …`.
    func selectSQL(_ context: SQLGenerationContext, forSingleResult: Bool = false) throws -> String {
        try declareAliases(context)
        return try selectSQL(context, clauses: clauses(context.db), forSingleResult: forSingleResult)
    }

    private func selectSQL(_ context: SQLGenerationContext, clauses: Clauses, forSingleResult: Bool = false) throws -> String {
        var sql = try withClause(context)
        sql += "SELECT "
        if isDistinct { sql += "DISTINCT " }
        sql += try allSelections(context.db).map { try $0.sql(context) }.joined(separator: ", ")
        sql += " FROM " + context.tableSQL(alias)
        sql += try joinClauses(context)
        sql += try whereClause(context)
        if !clauses.groups.isEmpty {
            sql += " GROUP BY " + (try clauses.groups.map { try $0.sql(context) }.joined(separator: ", "))
        }
        if !clauses.havings.isEmpty {
            sql += " HAVING " + (try SQLExpression.and(clauses.havings).sql(context))
        }
        if !clauses.orderings.isEmpty {
            sql += " ORDER BY " + (try clauses.orderings.map { try $0.sql(context) }.joined(separator: ", "))
        }
        if let limit {
            sql += " LIMIT \(limit)"
            if let offset { sql += " OFFSET \(offset)" }
        } else if try forSingleResult && !expectsSingleResult(context.db) {
            sql += " LIMIT 1"
        }
        return sql
    }

    /// The filter of the query, its columns qualified.
    func filterExpression(_ db: Database) throws -> SQLExpression? {
        guard !filters.isEmpty else { return nil }
        return try SQLExpression.and(filters.map { try $0(db).qualified(with: alias) })
    }

    private func whereClause(_ context: SQLGenerationContext) throws -> String {
        guard let filter = try filterExpression(context.db) else { return "" }
        return " WHERE " + (try filter.sql(context))
    }

    /// The orderings, reversed if needed. A reversed query with no ordering
    /// has no ordering, as in GRDB. A query joined to a reversed one is
    /// reversed with it (`isReversedByParent`): `reversed()` reverses the
    /// order of the rows, whichever table orders them.
    private func effectiveOrderings(_ db: Database, isReversedByParent: Bool = false) throws -> [SQLOrdering] {
        let orderings = try orderings?(db) ?? []
        guard isReversed != isReversedByParent else { return orderings }
        return try orderings.map { ordering in
            guard let reversed = ordering.reversed else {
                throw DatabaseError(resultCode: .SQLITE_MISUSE,
                                    message: "an ordering written in raw SQL cannot be reversed: use query interface orderings")
            }
            return reversed
        }
    }

    /// `WITH [RECURSIVE] name AS (…), … `, for the expressions of the query
    /// and of its joined tables.
    private func withClause(_ context: SQLGenerationContext) throws -> String {
        try commonTableExpressions.withClause(context)
    }

    /// The common table expressions of the query and of its joined tables,
    /// one per name. Of two with the same name, the last one added wins, at
    /// the place of the first, as in GRDB.
    var commonTableExpressions: [SQLCTE] {
        var ctes: [SQLCTE] = []
        for cte in allCTEs {
            if let index = ctes.firstIndex(where: { $0.tableName.lowercased() == cte.tableName.lowercased() }) {
                ctes[index] = cte
            } else {
                ctes.append(cte)
            }
        }
        return ctes
    }

    private var allCTEs: [SQLCTE] {
        ctes + statementJoins.flatMap(\.query.allCTEs)
    }

    /// The query without its common table expressions, nor those of its
    /// joined tables: a subquery of a statement that declares them.
    private var withoutCTEs: SQLQuery {
        var query = self
        query.ctes = []
        query.joins = joins.map { join in
            var join = join
            join.query = join.query.withoutCTEs
            return join
        }
        return query
    }

    /// The query with a common table expression, replacing one of the
    /// same name.
    func with(_ cte: SQLCTE) -> SQLQuery {
        var query = self
        query.ctes.removeAll { $0.tableName.lowercased() == cte.tableName.lowercased() }
        query.ctes.append(cte)
        return query
    }

    // MARK: - Joins

    /// The joins of the statement: not the associations prefetched by
    /// another statement.
    var statementJoins: [SQLJoin] {
        joins.filter { !$0.kind.isPrefetched }
    }

    /// The aliases of the query and of its joined tables, depth first.
    var allAliases: [TableAliasBase] {
        [alias] + statementJoins.flatMap(\.query.allAliases)
    }

    /// Names the tables of the statement in `context`, after checking
    /// that its associations make one join per key.
    func declareAliases(_ context: SQLGenerationContext) throws {
        try checkJoins()
        context.declare(allAliases)
    }

    private func checkJoins() throws {
        for join in joins {
            if let ambiguity = join.ambiguity {
                throw DatabaseError(resultCode: .SQLITE_MISUSE, message: ambiguity)
            }
            try join.query.checkJoins()
        }
    }

    /// The selection of the query, then the ones of the included tables,
    /// depth first.
    func allSelections(_ db: Database) throws -> [SQLSelection] {
        try selection(db).map { $0.qualified(with: alias) } + joinedSelections(db)
    }

    /// The selections of the included tables, depth first: a table joined
    /// without its columns (a pivot) may lead to included ones.
    private func joinedSelections(_ db: Database) throws -> [SQLSelection] {
        try statementJoins.flatMap { join in
            try (join.isSelected ? join.query.selection(db).map { $0.qualified(with: join.query.alias) } : [])
                + join.query.joinedSelections(db)
        }
    }

    /// The orderings of the query, then the ones of the joined tables.
    private func allOrderings(_ db: Database, isReversedByParent: Bool = false) throws -> [SQLOrdering] {
        var orderings = try effectiveOrderings(db, isReversedByParent: isReversedByParent).map { $0.qualified(with: alias) }
        for join in statementJoins {
            orderings += try join.query.allOrderings(db, isReversedByParent: isReversed != isReversedByParent)
        }
        return orderings
    }

    /// ` JOIN … ON …` for each joined table, depth first. A table joined
    /// through an optional join is optional too.
    private func joinClauses(_ context: SQLGenerationContext, underOptionalJoin: Bool = false) throws -> String {
        var sql = ""
        for join in statementJoins {
            let isOptional = underOptionalJoin || join.kind == .optional
            sql += isOptional ? " LEFT JOIN " : " JOIN "
            sql += context.tableSQL(join.query.alias)
            var conditions = try join.condition.expressions(context.db, origin: alias, destination: join.query.alias)
            if let filter = try join.query.filterExpression(context.db) {
                conditions.append(filter)
            }
            if !conditions.isEmpty {
                sql += " ON " + (try SQLExpression.and(conditions).sql(context))
            }
            sql += try join.query.joinClauses(context, underOptionalJoin: isOptional)
        }
        return sql
    }

    /// The query with `join` added, or merged with a join of the same key.
    func appending(_ join: SQLJoin) -> SQLQuery {
        var join = join
        // An association used twice (under two keys) must not join its
        // table twice under one name.
        join.query = join.query.withFreshImplicitAliases()
        var query = self
        if let index = joins.firstIndex(where: { $0.key == join.key }) {
            query.joins[index] = joins[index].merged(with: join)
        } else {
            query.joins.append(join)
        }
        return query
    }

    /// The joins of the statement, none of them selected at any depth: for
    /// queries that select their own columns (counts, keys of rows to
    /// delete or update, pivots).
    var unselectedJoins: [SQLJoin] {
        statementJoins.map { join in
            var join = join
            join.isSelected = false
            join.query.joins = join.query.unselectedJoins
            return join
        }
    }

    /// The query with new implicit aliases, here and in its joins.
    private func withFreshImplicitAliases() -> SQLQuery {
        var query = self
        if alias.isImplicit { query.alias = TableAlias<Void>(tableName: tableName) }
        query.joins = joins.map { join in
            var join = join
            join.query = join.query.withFreshImplicitAliases()
            return join
        }
        return query
    }

    // MARK: - COUNT

    /// The cheapest query that counts the rows of this one: `COUNT(*)` in
    /// place of the selection when each row counts once, or else a count
    /// of the query as a subquery.
    func countSQL(_ context: SQLGenerationContext) throws -> String {
        try declareAliases(context)
        let clauses = try clauses(context.db)
        let subqueryCount = { "SELECT COUNT(*) FROM (" + (try self.selectSQL(context, clauses: clauses)) + ")" }
        // Groups, limits, common table expressions and joins change the
        // number of rows: count the rows of the query itself, as GRDB does.
        guard clauses.groups.isEmpty && clauses.havings.isEmpty && limit == nil && offset == nil
                && ctes.isEmpty && statementJoins.isEmpty else { return try subqueryCount() }
        let selection = try self.selection(context.db)
        var counting = self
        counting.isDistinct = false
        if selection.count == 1 {
            switch selection[0].count(distinct: isDistinct) {
            case nil:
                return try subqueryCount()
            case .all:
                counting.selection = { _ in [CountAll().sqlSelection] }
            case .distinct(let expression):
                counting.selection = { _ in [SQLSelection(.expression(SQLExpression(.aggregate("COUNT", [expression], isDistinct: true))))] }
            }
        } else {
            if isDistinct || selection.contains(where: \.requiresSubqueryCount) { return try subqueryCount() }
            counting.selection = { _ in [CountAll().sqlSelection] }
        }
        return try counting.selectSQL(context, clauses: Clauses(groups: [], havings: [], orderings: []))
    }

    // MARK: - DELETE and UPDATE

    /// `DELETE FROM … WHERE …`, through the primary key when the query
    /// has joins or groups rows by a unique key, as GRDB writes it.
    func deleteSQL(_ context: SQLGenerationContext) throws -> String {
        try declareAliases(context)
        return try withClause(context) + "DELETE FROM " + tableName.quotedDatabaseIdentifier
            + targetClause(context, statement: "delete")
    }

    /// `UPDATE … SET … WHERE …`.
    func updateSQL(_ context: SQLGenerationContext, assignments: [ColumnAssignment],
                   conflictResolution: Database.ConflictResolution? = nil) throws -> String
    {
        try declareAliases(context)
        var sql = try withClause(context) + "UPDATE "
        if let conflictResolution, conflictResolution != .abort {
            sql += "OR \(conflictResolution.rawValue) "
        }
        sql += tableName.quotedDatabaseIdentifier + " SET "
        sql += try assignments.map { try $0.sql(context) }.joined(separator: ", ")
        return sql + (try targetClause(context, statement: "update"))
    }

    /// The rows that `DELETE` or `UPDATE` target. A query of one table,
    /// without grouping, uses its own `WHERE`, and its order and limit
    /// (`DELETE … ORDER BY … LIMIT …`: SQLCipher is built with
    /// SQLITE_ENABLE_UPDATE_DELETE_LIMIT); its selection, `DISTINCT` and
    /// an order without a limit do not matter. Otherwise the rows are
    /// those whose primary key the query selects.
    private func targetClause(_ context: SQLGenerationContext, statement: String) throws -> String {
        let db = context.db
        let groups = try groups?(db) ?? []
        if statementJoins.isEmpty && groups.isEmpty { // prefetched associations do not change the rows
            var sql = try whereClause(context)
            if let limit {
                // An unordered query stays unordered when reversed.
                let orderings = try orderings == nil ? [] : effectiveOrderings(db).map { $0.qualified(with: alias) }
                if !orderings.isEmpty {
                    sql += " ORDER BY " + (try orderings.map { try $0.sql(context) }.joined(separator: ", "))
                }
                sql += " LIMIT \(limit)"
                if let offset { sql += " OFFSET \(offset)" }
            }
            return sql
        }
        if !groups.isEmpty, try !groupsRowsByUniqueKey(db, groups: groups) {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "can't \(statement) query with GROUP BY clause")
        }
        guard let keyColumn = try db.primaryKey(tableName).fastPrimaryKeyColumn else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "can't \(statement) query with joins or GROUP BY clause in a table without rowid and a composite primary key: \(tableName)")
        }
        // The statement declares the common table expressions.
        var subquery = withoutCTEs
        subquery.selection = { _ in [SQLSelection(.expression(.column(keyColumn)))] }
        subquery.joins = subquery.unselectedJoins
        return " WHERE " + keyColumn.quotedDatabaseIdentifier
            + " IN (" + (try subquery.selectSQL(context, clauses: clauses(db))) + ")"
    }
}

/// A table joined to a query by an association, or an association
/// prefetched by another statement.
struct SQLJoin: Sendable {
    enum Kind: Sendable {
        /// `JOIN`: rows without a joined row are not selected.
        case required
        /// `LEFT JOIN`.
        case optional
        /// `including(all:)`: the rows of the association are fetched by
        /// another statement, for all rows of the query at once.
        case all
        /// The pivot of an association prefetched through it: neither
        /// joined nor fetched.
        case bridge

        /// Whether the association is fetched by another statement.
        var isPrefetched: Bool {
            switch self {
            case .required, .optional: return false
            case .all, .bridge: return true
            }
        }

        /// The kind of two joins of one key: required wins over optional.
        /// A joined association and a prefetched one can not share a key:
        /// nil.
        func merged(with other: Kind) -> Kind? {
            switch (self, other) {
            case (.required, .required), (.required, .optional), (.optional, .required): return .required
            case (.optional, .optional): return .optional
            case (.all, .all): return .all
            case (.bridge, .bridge): return .bridge
            default: return nil
            }
        }
    }

    /// The association key: the name of the joined table in the query
    /// (`"author"`), and of its scope or prefetched rows in fetched rows.
    var key: String
    var kind: Kind
    /// Whether the columns of the joined table are selected (`including`)
    /// or not (`joining`).
    var isSelected: Bool
    var condition: SQLAssociationCondition
    /// The joined table, its filters, selection, order, and its own joins.
    var query: SQLQuery
    /// Why two associations merged under this key do not make one join
    /// (other tables, conditions or kinds): the request throws it when it
    /// runs.
    var ambiguity: String?

    /// Two joins of one association key: required wins over optional,
    /// included over joined, the filters of both apply, and their joins
    /// are merged the same way, key by key.
    func merged(with other: SQLJoin) -> SQLJoin {
        var merged = self
        guard query.tableName.lowercased() == other.query.tableName.lowercased(),
              let mergedKind = kind.merged(with: other.kind),
              let mergedCondition = condition.merged(with: other.condition)
        else {
            merged.ambiguity = """
                The association key "\(key)" is ambiguous: two associations of this key join \
                different tables, on different conditions, or one is prefetched and not the other. \
                Use Association.forKey(_:) to tell them apart.
                """
            return merged
        }
        // Expressions that refer to either alias refer to the one table.
        other.query.alias.becomeProxy(of: query.alias)
        merged.kind = mergedKind
        merged.condition = mergedCondition
        // The selection of the last included one wins, as in GRDB.
        if other.isSelected { merged.query.selection = other.query.selection }
        merged.isSelected = isSelected || other.isSelected
        merged.query.filters = query.filters + other.query.filters
        if let orderings = other.query.orderings {
            merged.query.orderings = orderings
            merged.query.isReversed = other.query.isReversed
        }
        for join in other.query.joins {
            merged.query = merged.query.appending(join)
        }
        return merged
    }
}
