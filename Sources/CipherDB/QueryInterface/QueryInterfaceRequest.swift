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

    /// A copy of the request, changed by `update`.
    func with(_ update: (inout Self) -> Void) -> Self {
        var request = self
        update(&request)
        return request
    }

    /// The same request, on the table of `alias`, so that other parts of
    /// the query can refer to its columns: `Player.aliased(p).filter(p[Column("score")] > 1000)`.
    public func aliased(_ alias: TableAlias<Void>) -> Self {
        with { $0.query = $0.query.aliased(alias) }
    }

    /// The same request, on the table of `alias`.
    public func aliased(_ alias: TableAlias<RowDecoder>) -> Self {
        with { $0.query = $0.query.aliased(alias) }
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

    /// Selects one of the record's columns, and fetches values of another
    /// type: `Player.all().select({ $0.name }, as: String.self)`.
    public func select<T>(
        _ selection: (RowDecoder.DatabaseComponents) throws -> any SQLSelectable,
        as type: T.Type = T.self) rethrows -> QueryInterfaceRequest<T> where RowDecoder: TableRecord
    {
        try select([selection(RowDecoder.databaseComponents)]).asRequest(of: T.self)
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
        let associations = query.prefetchedAssociations
        let statement = try db.preparedStatement(sql: sql, arguments: context.arguments)
        statement.requestRegion = RequestRegion(query: query)
        return PreparedRequest(
            statement: statement,
            adapter: try query.rowAdapter(context),
            supplementaryFetch: associations.isEmpty ? nil : { [query] db, rows, willFetch in
                try query.prefetch(db, associations: associations, into: rows, willFetch: willFetch)
            })
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
        with { $0.query = $0.query.selectWhenConnected(selection) }
    }

    public func annotatedWhenConnected(
        with selection: @escaping @Sendable (Database) throws -> [any SQLSelectable]) -> Self
    {
        with { $0.query = $0.query.annotatedWhenConnected(with: selection) }
    }

    public func filterWhenConnected(_ predicate: @escaping @Sendable (Database) throws -> any SQLExpressible) -> Self {
        with { $0.query = $0.query.filterWhenConnected(predicate) }
    }

    public func orderWhenConnected(
        _ orderings: @escaping @Sendable (Database) throws -> [any SQLOrderingTerm]) -> Self
    {
        with { $0.query = $0.query.orderWhenConnected(orderings) }
    }

    public func reversed() -> Self {
        with { $0.query = $0.query.reversed() }
    }

    public func unordered() -> Self {
        with { $0.query = $0.query.unordered() }
    }

    public func withStableOrder() -> Self {
        with { $0.query = $0.query.withStableOrder() }
    }

    public func groupWhenConnected(_ expressions: @escaping @Sendable (Database) throws -> [any SQLExpressible]) -> Self {
        with { $0.query = $0.query.groupWhenConnected(expressions) }
    }

    public func havingWhenConnected(_ predicate: @escaping @Sendable (Database) throws -> any SQLExpressible) -> Self {
        with { $0.query = $0.query.havingWhenConnected(predicate) }
    }

    public func _including(optional association: _SQLAssociation) -> Self {
        with { $0.query = $0.query.appending(association.join(.optional, isSelected: true)) }
    }

    public func _including(required association: _SQLAssociation) -> Self {
        with { $0.query = $0.query.appending(association.join(.required, isSelected: true)) }
    }

    public func _joining(optional association: _SQLAssociation) -> Self {
        with { $0.query = $0.query.appending(association.join(.optional, isSelected: false)) }
    }

    public func _joining(required association: _SQLAssociation) -> Self {
        with { $0.query = $0.query.appending(association.join(.required, isSelected: false)) }
    }

    public func _including(all association: _SQLAssociation) -> Self {
        with { $0.query = $0.query.appending(association.join(.all, isSelected: true)) }
    }

    public func with<T>(_ cte: CommonTableExpression<T>) -> Self {
        with { $0.query = $0.query.with(cte.cte) }
    }

    public func distinct() -> Self {
        var request = self
        request.query.isDistinct = true
        return request
    }
}

extension Database {
    /// The one column of the primary key of a table (the rowid of a table
    /// without an explicit primary key), for `filter(key:)` and
    /// `filter(keys:)`.
    func filteringPrimaryKeyColumn(_ tableName: String) throws -> String {
        let columns = try primaryKey(tableName).columns
        guard columns.count == 1 else {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "Filtering by primary key requires a single-column primary key in the table '\(tableName)'")
        }
        return columns[0]
    }

    /// `(a = ? AND b = ?) OR …`, for keys that contain the primary key or
    /// the columns of a unique index: the columns of that key come first,
    /// in key order, then the others. A NULL value is `IS NULL`.
    func uniqueKeyExpression(table tableName: String, keys: [[String: DatabaseValue]]) throws -> SQLExpression {
        try SQLExpression.or(keys.map { key in
            guard let keyColumns = try columnsForUniqueKey(key.keys, in: tableName) else {
                let object = try viewExists(tableName) ? "database view" : "table"
                throw DatabaseError(
                    resultCode: .SQLITE_MISUSE,
                    message: "\(object) \(tableName) has no unique key on column(s) \(key.keys.sorted().joined(separator: ", "))")
            }
            let positions = Dictionary(keyColumns.enumerated().map { ($1.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
            let sortedKey = key.sorted { lhs, rhs in
                (positions[lhs.key.lowercased()] ?? Int.max) < (positions[rhs.key.lowercased()] ?? Int.max)
            }
            return SQLExpression.and(sortedKey.map { column, value in
                SQLExpression.equal(.column(column), SQLExpression(.value(value)))
            })
        })
    }
}
