/// The parts of a `SELECT` query built by ``QueryInterfaceRequest``.
///
/// Every clause may need the database to be built (the primary key of
/// `filter(key:)`, the default order of `reversed()`, the requirements of
/// `filterWhenConnected`): clauses are stored as functions of the database,
/// and evaluated when the request runs.
struct SQLQuery: Sendable {
    typealias Promise<Value> = @Sendable (Database) throws -> Value

    var tableName: String
    var selection: Promise<[SQLSelection]>
    var isDistinct = false
    var filters: [Promise<SQLExpression>] = []
    var groups: Promise<[SQLExpression]>?
    var havings: [Promise<SQLExpression>] = []
    var orderings: Promise<[SQLOrdering]>?
    var isReversed = false
    var limit: Int?
    var offset: Int?

    init(tableName: String, selection: [SQLSelection]) {
        self.tableName = tableName
        self.selection = { _ in selection }
    }

    /// The clauses of the query, evaluated for one execution.
    private struct Clauses {
        var groups: [SQLExpression]
        var havings: [SQLExpression]
        var orderings: [SQLOrdering]
    }

    private func clauses(_ db: Database) throws -> Clauses {
        try Clauses(
            groups: groups?(db) ?? [],
            havings: havings.map { try $0(db) },
            orderings: effectiveOrderings(db))
    }

    /// Whether the query selects rows of the table as they are, so that
    /// `DELETE` and `UPDATE` can use its `WHERE` clause directly.
    private func isPlainFilter(_ clauses: Clauses) -> Bool {
        !isDistinct && clauses.groups.isEmpty && clauses.havings.isEmpty && clauses.orderings.isEmpty && limit == nil
    }

    // MARK: - SELECT

    /// `SELECT … FROM … WHERE … GROUP BY … HAVING … ORDER BY … LIMIT …`.
    func selectSQL(_ context: SQLGenerationContext, forSingleResult: Bool = false) throws -> String {
        try selectSQL(context, clauses: clauses(context.db), forSingleResult: forSingleResult)
    }

    private func selectSQL(_ context: SQLGenerationContext, clauses: Clauses, forSingleResult: Bool = false) throws -> String {
        var sql = "SELECT "
        if isDistinct { sql += "DISTINCT " }
        sql += try selection(context.db).map { try $0.sql(context) }.joined(separator: ", ")
        sql += " FROM " + tableName.quotedDatabaseIdentifier
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
        if forSingleResult {
            sql += " LIMIT 1"
            if let offset { sql += " OFFSET \(offset)" }
        } else if let limit {
            sql += " LIMIT \(limit)"
            if let offset { sql += " OFFSET \(offset)" }
        }
        return sql
    }

    private func whereClause(_ context: SQLGenerationContext) throws -> String {
        guard !filters.isEmpty else { return "" }
        let expressions = try filters.map { try $0(context.db) }
        return " WHERE " + (try SQLExpression.and(expressions).sql(context))
    }

    /// The orderings, reversed if needed. A reversed query with no ordering
    /// is ordered by primary key, descending.
    private func effectiveOrderings(_ db: Database) throws -> [SQLOrdering] {
        let orderings = try orderings?(db) ?? []
        guard isReversed else { return orderings }
        if orderings.isEmpty {
            return try db.primaryKey(tableName).columns.map { SQLOrdering(.column($0), .descending) }
        }
        return try orderings.map { ordering in
            guard let reversed = ordering.reversed else {
                throw DatabaseError(resultCode: .SQLITE_MISUSE,
                                    message: "an ordering written in raw SQL cannot be reversed: use query interface orderings")
            }
            return reversed
        }
    }

    // MARK: - COUNT

    /// The cheapest query that counts the rows of this one: `COUNT(*)` in
    /// place of the selection when each row counts once, or else a count
    /// of the query as a subquery.
    func countSQL(_ context: SQLGenerationContext) throws -> String {
        let clauses = try clauses(context.db)
        if !isDistinct && clauses.groups.isEmpty && clauses.havings.isEmpty && limit == nil && offset == nil {
            var counting = self
            counting.selection = { _ in [CountAll().sqlSelection] }
            return try counting.selectSQL(context, clauses: Clauses(groups: [], havings: [], orderings: []))
        }
        return "SELECT COUNT(*) FROM (" + (try selectSQL(context, clauses: clauses)) + ")"
    }

    // MARK: - DELETE and UPDATE

    /// `DELETE FROM … WHERE …`, through the primary key when the query
    /// has an order, a limit, a grouping or DISTINCT.
    func deleteSQL(_ context: SQLGenerationContext) throws -> String {
        "DELETE FROM " + tableName.quotedDatabaseIdentifier + (try targetClause(context))
    }

    /// `UPDATE … SET … WHERE …`.
    func updateSQL(_ context: SQLGenerationContext, assignments: [ColumnAssignment],
                   conflictResolution: Database.ConflictResolution? = nil) throws -> String
    {
        var sql = "UPDATE "
        if let conflictResolution, conflictResolution != .abort {
            sql += "OR \(conflictResolution.rawValue) "
        }
        sql += tableName.quotedDatabaseIdentifier + " SET "
        sql += try assignments.map { try $0.sql(context) }.joined(separator: ", ")
        return sql + (try targetClause(context))
    }

    private func targetClause(_ context: SQLGenerationContext) throws -> String {
        let clauses = try clauses(context.db)
        if isPlainFilter(clauses) {
            return try whereClause(context)
        }
        let primaryKey = try context.db.primaryKey(tableName).columns
        var subquery = self
        subquery.selection = { _ in primaryKey.map { SQLSelection(.expression(.column($0))) } }
        let key = primaryKey.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
        let target = primaryKey.count == 1 ? key : "(" + key + ")"
        return " WHERE " + target + " IN (" + (try subquery.selectSQL(context, clauses: clauses)) + ")"
    }
}
