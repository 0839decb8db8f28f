/// The parts of a `SELECT` query built by ``QueryInterfaceRequest``.
///
/// Some parts need the database to be built (the primary key of
/// `filter(key:)`, the default order of `reversed()`): they are stored as
/// functions of the database, and evaluated when the request runs.
struct SQLQuery: Sendable {
    typealias Filter = @Sendable (Database) throws -> SQLExpression

    var tableName: String
    var selection: [SQLSelection]
    var isDistinct = false
    var filters: [Filter] = []
    var groups: [SQLExpression] = []
    var havings: [SQLExpression] = []
    var orderings: [SQLOrdering] = []
    var isReversed = false
    var limit: Int?
    var offset: Int?

    init(tableName: String, selection: [SQLSelection]) {
        self.tableName = tableName
        self.selection = selection
    }

    /// Whether the query selects rows of the table as they are, so that
    /// `DELETE` and `UPDATE` can use its `WHERE` clause directly.
    private var isPlainFilter: Bool {
        !isDistinct && groups.isEmpty && havings.isEmpty && orderings.isEmpty && limit == nil
    }

    // MARK: - SELECT

    /// `SELECT … FROM … WHERE … GROUP BY … HAVING … ORDER BY … LIMIT …`.
    func selectSQL(_ context: SQLGenerationContext, forSingleResult: Bool = false) throws -> String {
        var sql = "SELECT "
        if isDistinct { sql += "DISTINCT " }
        sql += try selection.map { try $0.sql(context) }.joined(separator: ", ")
        sql += " FROM " + tableName.quotedDatabaseIdentifier
        sql += try whereClause(context)
        if !groups.isEmpty {
            sql += " GROUP BY " + (try groups.map { try $0.sql(context) }.joined(separator: ", "))
        }
        if !havings.isEmpty {
            sql += " HAVING " + (try SQLExpression.and(havings).sql(context))
        }
        let orderings = try effectiveOrderings(context.db)
        if !orderings.isEmpty {
            sql += " ORDER BY " + (try orderings.map { try $0.sql(context) }.joined(separator: ", "))
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
        if !isDistinct && groups.isEmpty && havings.isEmpty && limit == nil && offset == nil {
            var counting = self
            counting.orderings = []
            counting.isReversed = false
            counting.selection = [CountAll().sqlSelection]
            return try counting.selectSQL(context)
        }
        return "SELECT COUNT(*) FROM (" + (try selectSQL(context)) + ")"
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
        if isPlainFilter {
            return try whereClause(context)
        }
        let primaryKey = try context.db.primaryKey(tableName).columns
        var subquery = self
        subquery.selection = primaryKey.map { SQLSelection(.expression(.column($0))) }
        let key = primaryKey.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
        let target = primaryKey.count == 1 ? key : "(" + key + ")"
        return " WHERE " + target + " IN (" + (try subquery.selectSQL(context)) + ")"
    }
}
