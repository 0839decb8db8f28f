// The protocols of derivable requests: a request that can be refined with
// a selection, a filter, an order, a grouping. ``QueryInterfaceRequest``
// adopts them all, and extensions of ``DerivableRequest`` define reusable
// refinements:
//
// ```swift
// extension DerivableRequest<Player> {
//     func orderedByName() -> Self {
//         order(Columns.name.collating(.localizedCaseInsensitiveCompare))
//     }
// }
// ```
//
// Each protocol has one requirement per clause, which takes a function of
// the database (`filterWhenConnected`, …): the convenience methods
// (`filter(_:)`, `order(_:)`, …) are built on it.

// MARK: - TypedRequest

/// A request that knows the type of what it fetches.
public protocol TypedRequest<RowDecoder> {
    associatedtype RowDecoder
}

// MARK: - SelectionRequest

/// A request whose selection can change.
public protocol SelectionRequest {
    /// A request that selects what `selection` returns when the request
    /// runs, instead of its current selection.
    func selectWhenConnected(
        _ selection: @escaping @Sendable (Database) throws -> [any SQLSelectable]) -> Self

    /// A request that appends what `selection` returns when the request
    /// runs to its current selection.
    func annotatedWhenConnected(
        with selection: @escaping @Sendable (Database) throws -> [any SQLSelectable]) -> Self
}

extension SelectionRequest {
    /// `SELECT a, b, …`, replacing the current selection.
    public func select(_ selection: [any SQLSelectable]) -> Self {
        let selection = selection.map(\.sqlSelection)
        return selectWhenConnected { _ in selection }
    }

    /// `SELECT a, b, …`, replacing the current selection.
    public func select(_ selection: any SQLSelectable...) -> Self {
        select(selection)
    }

    /// `SELECT` raw SQL: `select(sql: "id, name")`.
    public func select(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        select(SQL(sql: sql, arguments: arguments))
    }

    /// `SELECT` an SQL literal.
    public func select(literal sqlLiteral: SQL) -> Self {
        select(sqlLiteral)
    }

    /// Appends to the selection: `Player.annotated(with: Column("score") * 2)`.
    public func annotated(with selection: [any SQLSelectable]) -> Self {
        let selection = selection.map(\.sqlSelection)
        return annotatedWhenConnected { _ in selection }
    }

    /// Appends to the selection.
    public func annotated(with selection: any SQLSelectable...) -> Self {
        annotated(with: selection)
    }
}

extension SelectionRequest where Self: TypedRequest, Self.RowDecoder: TableRecord {
    public typealias DatabaseComponents = RowDecoder.DatabaseComponents

    /// Selects from the record's columns: `Player.all().select { $0.name }`.
    public func select(_ selection: (DatabaseComponents) throws -> any SQLSelectable) rethrows -> Self {
        try select([selection(RowDecoder.databaseComponents)])
    }

    /// Selects from the record's columns: `Player.all().select { [$0.id, $0.name] }`.
    public func select(_ selection: (DatabaseComponents) throws -> [any SQLSelectable]) rethrows -> Self {
        try select(selection(RowDecoder.databaseComponents))
    }

    /// Appends one of the record's columns to the selection.
    public func annotated(with selection: (DatabaseComponents) throws -> any SQLSelectable) rethrows -> Self {
        try annotated(with: [selection(RowDecoder.databaseComponents)])
    }

    /// Appends some of the record's columns to the selection.
    public func annotated(with selection: (DatabaseComponents) throws -> [any SQLSelectable]) rethrows -> Self {
        try annotated(with: selection(RowDecoder.databaseComponents))
    }
}

// MARK: - FilteredRequest

/// A request whose rows can be filtered.
public protocol FilteredRequest {
    /// A request with the predicate that `predicate` returns when the request
    /// runs added to its filter (with `AND`).
    func filterWhenConnected(_ predicate: @escaping @Sendable (Database) throws -> any SQLExpressible) -> Self
}

extension FilteredRequest {
    /// `WHERE predicate`, added to the current filter with `AND`.
    ///
    /// The predicate is an SQL expression, never a Swift value: `filter(true)`
    /// and `filter(42)` do not compile, so that a Swift comparison that
    /// returns a `Bool` can never stand for an SQL one.
    ///
    /// ```swift
    /// let request = Player.all().filter(Column("name") == "O'Brien")
    /// ```
    public func filter(_ predicate: some SQLSpecificExpressible) -> Self {
        let predicate = predicate.sqlExpression
        return filterWhenConnected { _ in predicate }
    }

    /// `WHERE` raw SQL: `filter(sql: "score > ?", arguments: [1000])`.
    public func filter(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        filter(SQL(sql: sql, arguments: arguments))
    }

    /// `WHERE` an SQL literal: `filter(literal: "name = \(name)")`.
    public func filter(literal sqlLiteral: SQL) -> Self {
        filter(sqlLiteral)
    }

    /// A request that returns no row.
    public func none() -> Self {
        filterWhenConnected { _ in false }
    }

    /// The request itself: the counterpart of ``none()``.
    public func all() -> Self {
        self
    }
}

extension FilteredRequest where Self: TypedRequest, Self.RowDecoder: TableRecord {
    public typealias DatabaseComponents = RowDecoder.DatabaseComponents

    /// Filters with the record's columns: `Player.all().filter { $0.score > 1000 }`.
    public func filter(_ predicate: (DatabaseComponents) throws -> any SQLSpecificExpressible) rethrows -> Self {
        let predicate = try predicate(RowDecoder.databaseComponents).sqlExpression
        return filterWhenConnected { _ in predicate }
    }
}

// MARK: - TableRequest

/// A request that feeds from a table.
public protocol TableRequest {
    /// The name of the table.
    var databaseTableName: String { get }

    /// The same request, on the table of `alias`, so that other parts of
    /// the query can refer to it.
    func aliased(_ alias: TableAlias<Void>) -> Self
}

// MARK: - Keys

extension TableRequest where Self: FilteredRequest, Self: TypedRequest {
    /// Filters by primary key: `Player.all().filter(key: 1)`. A NULL key
    /// identifies no row.
    public func filter(key: some DatabaseValueConvertible) -> Self {
        if key.databaseValue.isNull { return none() }
        return filter(keys: [key])
    }

    /// Filters by primary keys: `Player.all().filter(keys: [1, 2, 3])`.
    /// No key: no row, and the request does not hit the database.
    ///
    /// A `Data`, `Date` or `UUID` key of a record is encoded as the record
    /// stores it, with its `databaseUUIDEncodingStrategy(for:)` and the
    /// like for the primary key column.
    public func filter(keys: some Collection<some DatabaseValueConvertible>) -> Self {
        let tableName = databaseTableName
        if RowDecoder.self is any EncodableRecord.Type, let encodedKeys = StrategyEncodedKeys(keys) {
            if encodedKeys.isEmpty { return none() }
            return filterWhenConnected { db in
                let column = try db.filteringPrimaryKeyColumn(tableName)
                // Checked above; a metatype is not Sendable, so it is not captured.
                let recordType = RowDecoder.self as! any EncodableRecord.Type
                let values = try encodedKeys.databaseValues(for: recordType, column: column)
                return SQLExpression.isIn(.column(column), values.map { SQLExpression(.value($0)) })
            }
        }
        let values = keys.map { SQLExpression(.value($0.databaseValue)) }
        if values.isEmpty { return none() }
        return filterWhenConnected { db in
            try SQLExpression.isIn(.column(db.filteringPrimaryKeyColumn(tableName)), values)
        }
    }

    /// Filters by a key given as a dictionary of column values: the primary
    /// key (composite or not), or the columns of a unique index. A nil key
    /// identifies no row.
    public func filter(key: [String: (any DatabaseValueConvertible)?]?) -> Self {
        guard let key else { return none() }
        return filter(keys: [key])
    }

    /// Filters by keys given as dictionaries of column values, each of them
    /// containing the primary key or the columns of a unique index. No
    /// key: no row, and the request does not hit the database.
    public func filter(keys: [[String: (any DatabaseValueConvertible)?]]) -> Self {
        if keys.isEmpty { return none() }
        let keys = keys.map { $0.mapValues { $0?.databaseValue ?? .null } }
        let tableName = databaseTableName
        return filterWhenConnected { db in try db.uniqueKeyExpression(table: tableName, keys: keys) }
    }
}

extension TableRequest where Self: FilteredRequest, Self: TypedRequest, RowDecoder: Identifiable, RowDecoder.ID: DatabaseValueConvertible {
    /// Filters by id: `Player.all().filter(id: 1)`.
    public func filter(id: RowDecoder.ID) -> Self {
        filter(key: id)
    }

    /// Filters by ids.
    public func filter(ids: some Collection<RowDecoder.ID>) -> Self {
        filter(keys: ids)
    }
}

extension TableRequest where Self: OrderedRequest {
    /// `ORDER BY` the primary key, or the rowid for a table without one.
    public func orderByPrimaryKey() -> Self {
        let tableName = databaseTableName
        return orderWhenConnected { db in
            try db.primaryKey(tableName).columns.map { Column($0) }
        }
    }
}

extension TableRequest where Self: AggregatingRequest {
    /// `GROUP BY` the primary key: the column that aliases the rowid, or
    /// else the rowid of a table that has one, or else (`WITHOUT ROWID`
    /// tables, views) the primary key columns.
    public func groupByPrimaryKey() -> Self {
        let tableName = databaseTableName
        return groupWhenConnected { db in
            let primaryKey = try db.primaryKey(tableName)
            if let rowIDColumn = primaryKey.rowIDColumn {
                return [Column(rowIDColumn)]
            }
            if primaryKey.tableHasRowID {
                return [Column.rowID]
            }
            return primaryKey.columns.map { Column($0) }
        }
    }
}

// MARK: - AggregatingRequest

/// A request whose rows can be grouped.
public protocol AggregatingRequest {
    /// `GROUP BY` what `expressions` returns when the request runs,
    /// replacing the current grouping.
    func groupWhenConnected(_ expressions: @escaping @Sendable (Database) throws -> [any SQLExpressible]) -> Self

    /// A request with the predicate that `predicate` returns when the
    /// request runs added to its `HAVING` clause (with `AND`).
    func havingWhenConnected(_ predicate: @escaping @Sendable (Database) throws -> any SQLExpressible) -> Self
}

extension AggregatingRequest {
    /// `GROUP BY a, b, …`, replacing the current grouping.
    public func group(_ expressions: [any SQLExpressible]) -> Self {
        let expressions = expressions.map(\.sqlExpression)
        return groupWhenConnected { _ in expressions }
    }

    /// `GROUP BY a, b, …`, replacing the current grouping.
    public func group(_ expressions: any SQLExpressible...) -> Self {
        group(expressions)
    }

    /// `GROUP BY` raw SQL.
    public func group(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        group(SQL(sql: sql, arguments: arguments))
    }

    /// `GROUP BY` an SQL literal.
    public func group(literal sqlLiteral: SQL) -> Self {
        group(sqlLiteral)
    }

    /// `HAVING predicate`, added to the current `HAVING` clause with `AND`:
    /// `.having(max(Column("score")) > 1000)`.
    public func having(_ predicate: some SQLExpressible) -> Self {
        let predicate = predicate.sqlExpression
        return havingWhenConnected { _ in predicate }
    }

    /// `HAVING` raw SQL.
    public func having(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        having(SQL(sql: sql, arguments: arguments))
    }

    /// `HAVING` an SQL literal.
    public func having(literal sqlLiteral: SQL) -> Self {
        having(sqlLiteral)
    }
}

extension AggregatingRequest where Self: TypedRequest, Self.RowDecoder: TableRecord {
    public typealias DatabaseComponents = RowDecoder.DatabaseComponents

    /// Groups by one of the record's columns.
    public func group(_ expression: (DatabaseComponents) throws -> any SQLExpressible) rethrows -> Self {
        try group([expression(RowDecoder.databaseComponents)])
    }

    /// Groups by some of the record's columns.
    public func group(_ expressions: (DatabaseComponents) throws -> [any SQLExpressible]) rethrows -> Self {
        try group(expressions(RowDecoder.databaseComponents))
    }

    /// `HAVING` with the record's columns.
    public func having(_ predicate: (DatabaseComponents) throws -> any SQLExpressible) rethrows -> Self {
        let predicate = try predicate(RowDecoder.databaseComponents).sqlExpression
        return havingWhenConnected { _ in predicate }
    }
}

// MARK: - OrderedRequest

/// A request whose rows can be ordered.
public protocol OrderedRequest {
    /// A request ordered by what `orderings` returns when the request runs,
    /// replacing its current order.
    func orderWhenConnected(_ orderings: @escaping @Sendable (Database) throws -> [any SQLOrderingTerm]) -> Self

    /// A request in the reverse order. A request with no order is ordered
    /// by primary key, descending.
    func reversed() -> Self

    /// A request with no order.
    func unordered() -> Self

    /// A request whose order is total: its current order, then the
    /// primary key (or the rowid) if that order does not already include it.
    func withStableOrder() -> Self
}

extension OrderedRequest {
    /// `ORDER BY a, b, …`, replacing the current order.
    public func order(_ orderings: any SQLOrderingTerm...) -> Self {
        order(orderings)
    }

    /// `ORDER BY a, b, …`, replacing the current order.
    public func order(_ orderings: [any SQLOrderingTerm]) -> Self {
        let orderings = orderings.map(\.sqlOrdering)
        return orderWhenConnected { _ in orderings }
    }

    /// `ORDER BY` raw SQL: `order(sql: "RANDOM()")`.
    public func order(sql: String, arguments: StatementArguments = StatementArguments()) -> Self {
        order([SQLOrdering(literal: SQL(sql: sql, arguments: arguments))])
    }

    /// `ORDER BY` an SQL literal.
    public func order(literal sqlLiteral: SQL) -> Self {
        order([SQLOrdering(literal: sqlLiteral)])
    }
}

extension OrderedRequest where Self: TypedRequest, Self.RowDecoder: TableRecord {
    public typealias DatabaseComponents = RowDecoder.DatabaseComponents

    /// Orders by one of the record's columns: `Player.all().order { $0.score.desc }`.
    public func order(_ ordering: (DatabaseComponents) throws -> any SQLOrderingTerm) rethrows -> Self {
        try order([ordering(RowDecoder.databaseComponents)])
    }

    /// Orders by some of the record's columns.
    public func order(_ orderings: (DatabaseComponents) throws -> [any SQLOrderingTerm]) rethrows -> Self {
        try order(orderings(RowDecoder.databaseComponents))
    }
}

// MARK: - JoinableRequest

/// A request that can join the tables of associations.
public protocol JoinableRequest<RowDecoder>: TypedRequest {
    /// `LEFT JOIN`, selecting the columns of the association.
    func _including(optional association: _SQLAssociation) -> Self
    /// `JOIN`, selecting the columns of the association.
    func _including(required association: _SQLAssociation) -> Self
    /// `LEFT JOIN`, without selecting the columns of the association.
    func _joining(optional association: _SQLAssociation) -> Self
    /// `JOIN`, without selecting the columns of the association.
    func _joining(required association: _SQLAssociation) -> Self
    /// Prefetches the records of a to-many association.
    func _including(all association: _SQLAssociation) -> Self
}

extension JoinableRequest {
    /// Joins the table of the association with `LEFT JOIN`, and selects its
    /// columns: rows without an associated row are fetched too.
    ///
    /// ```swift
    /// // SELECT book.*, author.* FROM book LEFT JOIN author ON author.id = book.authorId
    /// let request = Book.all().including(optional: Book.author)
    /// ```
    public func including<A: Association>(optional association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        _including(optional: association._sqlAssociation)
    }

    /// Joins the table of the association with `JOIN`, and selects its
    /// columns: only rows with an associated row are fetched.
    public func including<A: Association>(required association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        _including(required: association._sqlAssociation)
    }

    /// Joins the table of the association with `LEFT JOIN`, without
    /// selecting its columns: for filters and orderings on it.
    public func joining<A: Association>(optional association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        _joining(optional: association._sqlAssociation)
    }

    /// Joins the table of the association with `JOIN`, without selecting
    /// its columns: only rows with an associated row are fetched.
    ///
    /// ```swift
    /// // SELECT book.* FROM book JOIN author ON author.id = book.authorId
    /// // WHERE author.country = 'FR'
    /// let request = Book.all().joining(required: Book.author.filter(Column("country") == "FR"))
    /// ```
    public func joining<A: Association>(required association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        _joining(required: association._sqlAssociation)
    }

    /// Prefetches the records of a to-many association: after the rows of
    /// the request, one more statement fetches the associated rows of all
    /// of them, grouped by row in ``Row/prefetchedRows``, under the plural
    /// association key. A row without associated rows has an empty array.
    ///
    /// ```swift
    /// // SELECT * FROM author
    /// // SELECT *, authorId AS grdb_authorId FROM book WHERE authorId IN (1, 2, 3)
    /// struct AuthorInfo: FetchableRecord, Decodable {
    ///     var author: Author
    ///     var books: [Book]
    /// }
    /// let infos = try Author.including(all: Author.books)
    ///     .asRequest(of: AuthorInfo.self)
    ///     .fetchAll(db)
    /// ```
    ///
    /// The association may be filtered, ordered, include other
    /// associations, and be included inside a to-one association
    /// (`Book.including(required: Book.author.including(all: Author.awards))`).
    /// Requests that prefetch can not give cursors.
    public func including<A: AssociationToMany>(all association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        _including(all: association._sqlAssociation)
    }
}

extension JoinableRequest where Self: SelectionRequest {
    /// Appends the columns of an association to the selection, with
    /// `LEFT JOIN`. Unlike `including(optional:)`, the columns are not in
    /// a scope: they follow the columns of the request in the same row,
    /// and are NULL when no row joins.
    ///
    /// ```swift
    /// // SELECT player.*, team.name AS teamName
    /// // FROM player LEFT JOIN team ON team.id = player.teamId
    /// let request = Player.annotated(withOptional: Player.team.select(Column("name").forKey("teamName")))
    /// ```
    public func annotated<A: Association>(withOptional association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        let annotation = association.annotation()
        return joining(optional: annotation.association).annotatedWhenConnected(with: annotation.selection)
    }

    /// Appends the columns of an association to the selection, with `JOIN`.
    /// Unlike `including(required:)`, the columns are not in a scope: they
    /// follow the columns of the request in the same row.
    public func annotated<A: Association>(withRequired association: A) -> Self where A.OriginRowDecoder == RowDecoder {
        let annotation = association.annotation()
        return joining(required: annotation.association).annotatedWhenConnected(with: annotation.selection)
    }
}

// MARK: - DerivableRequest

/// A request that can be refined in every way: the protocol to extend with
/// reusable requests of a record type.
///
/// ```swift
/// extension DerivableRequest<Player> {
///     func orderedByScore() -> Self {
///         order(Columns.score.desc, Columns.name)
///     }
/// }
/// let best = try Player.all().orderedByScore().fetchOne(db)
/// ```
public protocol DerivableRequest<RowDecoder>: AggregatingRequest, FilteredRequest, JoinableRequest,
    OrderedRequest, SelectionRequest, TableRequest, TypedRequest
{
    /// `SELECT DISTINCT`.
    func distinct() -> Self

    /// The request with a common table expression in its `WITH` clause,
    /// replacing one of the same name.
    func with<T>(_ cte: CommonTableExpression<T>) -> Self
}

extension DerivableRequest where RowDecoder: TableRecord {
    /// The columns of the record type, so that extensions of
    /// `DerivableRequest<Player>` can write `Columns.name`.
    public typealias Columns = RowDecoder.Columns
}
