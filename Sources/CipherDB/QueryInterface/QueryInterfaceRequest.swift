/// A request built with the query interface.
///
/// ```swift
/// let request = Player
///     .filter(Column("score") > 1000)
///     .order(Column("name"))
///     .limit(10)
/// let players = try request.fetchAll(db)
/// let sql = try request.makePreparedRequest(db).statement.sql
/// ```
public struct QueryInterfaceRequest<RowDecoder>: Sendable {
    var query: SQLQuery

    init(query: SQLQuery) {
        self.query = query
    }

    /// A request of all rows of a table.
    init(tableName: String, selection: [SQLSelection]) {
        query = SQLQuery(tableName: tableName, selection: selection)
    }

    /// The same request, fetching another type: `select(Column("name"), as: String.self)`.
    public func asRequest<T>(of type: T.Type) -> QueryInterfaceRequest<T> {
        QueryInterfaceRequest<T>(query: query)
    }

    /// `LIMIT limit [OFFSET offset]`.
    public func limit(_ limit: Int, offset: Int? = nil) -> Self {
        var request = self
        request.query.limit = limit
        request.query.offset = offset
        return request
    }

    /// Selects `selection`, and fetches values of another type:
    /// `Player.all().select([max(Column("score"))], as: Int.self)`.
    public func select<T>(_ selection: [any SQLSelectable], as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        select(selection).asRequest(of: T.self)
    }

    /// Selects `selection`, and fetches values of another type:
    /// `Player.all().select(max(Column("score")), as: Int.self)`.
    public func select<T>(_ selection: any SQLSelectable..., as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        select(selection).asRequest(of: T.self)
    }

    /// Selects raw SQL, and fetches values of another type.
    public func select<T>(
        sql: String, arguments: StatementArguments = StatementArguments(),
        as type: T.Type = T.self) -> QueryInterfaceRequest<T>
    {
        select(sql: sql, arguments: arguments).asRequest(of: T.self)
    }

    /// Selects an SQL literal, and fetches values of another type.
    public func select<T>(literal sqlLiteral: SQL, as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        select(literal: sqlLiteral).asRequest(of: T.self)
    }

    /// Selects the primary key (the rowid for a table without one), and
    /// fetches values of another type: `Player.all().selectPrimaryKey(as: Int64.self)`.
    public func selectPrimaryKey<PrimaryKey>(as type: PrimaryKey.Type = PrimaryKey.self) -> QueryInterfaceRequest<PrimaryKey> {
        let tableName = query.tableName
        return selectWhenConnected { db in
            try db.primaryKey(tableName).columns.map { Column($0) }
        }.asRequest(of: PrimaryKey.self)
    }

    /// Selects the ids of the records: `try Player.all().selectID().fetchAll(db)`.
    public func selectID() -> QueryInterfaceRequest<RowDecoder.ID> where RowDecoder: Identifiable {
        selectPrimaryKey(as: RowDecoder.ID.self)
    }
}

extension QueryInterfaceRequest: FetchRequest {
    public func makePreparedRequest(_ db: Database, forSingleResult singleResult: Bool) throws -> PreparedRequest {
        let context = SQLGenerationContext(db)
        let sql = try query.selectSQL(context, forSingleResult: singleResult)
        return PreparedRequest(statement: try db.preparedStatement(sql: sql, arguments: context.arguments))
    }

    public func fetchCount(_ db: Database) throws -> Int {
        let context = SQLGenerationContext(db)
        let sql = try query.countSQL(context)
        return try Int.fetchOne(db, sql: sql, arguments: context.arguments) ?? 0
    }
}

extension QueryInterfaceRequest: DerivableRequest {
    public var databaseTableName: String { query.tableName }

    public func selectWhenConnected(
        _ selection: @escaping @Sendable (Database) throws -> [any SQLSelectable]) -> Self
    {
        var request = self
        request.query.selection = { db in try selection(db).map(\.sqlSelection) }
        return request
    }

    public func annotatedWhenConnected(
        with selection: @escaping @Sendable (Database) throws -> [any SQLSelectable]) -> Self
    {
        var request = self
        let currentSelection = query.selection
        request.query.selection = { db in try currentSelection(db) + selection(db).map(\.sqlSelection) }
        return request
    }

    public func filterWhenConnected(_ predicate: @escaping @Sendable (Database) throws -> any SQLExpressible) -> Self {
        var request = self
        request.query.filters.append { db in try predicate(db).sqlExpression }
        return request
    }

    public func orderWhenConnected(
        _ orderings: @escaping @Sendable (Database) throws -> [any SQLOrderingTerm]) -> Self
    {
        var request = self
        request.query.orderings = { db in try orderings(db).map(\.sqlOrdering) }
        request.query.isReversed = false
        return request
    }

    public func reversed() -> Self {
        var request = self
        request.query.isReversed.toggle()
        return request
    }

    public func unordered() -> Self {
        var request = self
        request.query.orderings = nil
        request.query.isReversed = false
        return request
    }

    public func withStableOrder() -> Self {
        var request = self
        let currentOrderings = query.orderings
        let tableName = query.tableName
        request.query.orderings = { db in
            // The primary key, not the rowid: rowids can change on VACUUM.
            let primaryKey = try db.primaryKey(tableName).columns.map { SQLOrdering(.column($0), .ascending) }
            return try (currentOrderings?(db) ?? []) + primaryKey
        }
        return request
    }

    public func groupWhenConnected(_ expressions: @escaping @Sendable (Database) throws -> [any SQLExpressible]) -> Self {
        var request = self
        request.query.groups = { db in try expressions(db).map(\.sqlExpression) }
        return request
    }

    public func havingWhenConnected(_ predicate: @escaping @Sendable (Database) throws -> any SQLExpressible) -> Self {
        var request = self
        request.query.havings.append { db in try predicate(db).sqlExpression }
        return request
    }

    public func distinct() -> Self {
        var request = self
        request.query.isDistinct = true
        return request
    }
}

extension Database {
    /// `pk IN (…)` for a single-column primary key (or the hidden rowid).
    func primaryKeyExpression(table: String, values: [DatabaseValue]) throws -> SQLExpression {
        let columns = try primaryKey(table).columns
        guard columns.count == 1 else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "table \(table) has a composite primary key (\(columns.joined(separator: ", "))): give keys as dictionaries of column values")
        }
        return .isIn(.column(columns[0]), values.map { SQLExpression(.value($0)) })
    }

    /// `(a = ? AND b = ?) OR …` for keys made of the primary key columns or
    /// of the columns of a unique index.
    func uniqueKeyExpression(table: String, keys: [[String: DatabaseValue]]) throws -> SQLExpression {
        var checkedColumnSets: Set<Set<String>> = []
        let alternatives = try keys.map { key -> SQLExpression in
            let columnSet = Set(key.keys.map { $0.lowercased() })
            if !checkedColumnSets.contains(columnSet) {
                guard try isUniqueKey(table: table, columns: columnSet) else {
                    throw DatabaseError(
                        resultCode: .SQLITE_MISUSE,
                        message: "table \(table) has no unique index on column(s) \(key.keys.sorted().joined(separator: ", "))")
                }
                checkedColumnSets.insert(columnSet)
            }
            // A key with a NULL value identifies no row.
            if key.values.contains(where: \.isNull) { return SQLExpression.or([]) }
            return SQLExpression.and(key.sorted { $0.key < $1.key }.map { column, dbValue in
                SQLExpression.compare(.equal, .column(column), SQLExpression(.value(dbValue)))
            })
        }
        return SQLExpression.or(alternatives)
    }

    /// Whether the columns are the primary key, or those of a unique index.
    func isUniqueKey(table: String, columns: Set<String>) throws -> Bool {
        if Set(try primaryKey(table).columns.map { $0.lowercased() }) == columns { return true }
        return try indexes(on: table).contains { $0.isUnique && Set($0.columns.map { $0.lowercased() }) == columns }
    }
}
