// Requests that start from a record type: `Player.filter(…)` is
// `Player.all().filter(…)`.

extension TableRecord {
    /// A request of all rows: `try Player.all().fetchAll(db)`.
    ///
    /// It selects ``TableRecord/databaseSelection``.
    public static func all() -> QueryInterfaceRequest<Self> {
        QueryInterfaceRequest(tableName: databaseTableName, selection: databaseSelection.map(\.sqlSelection))
    }

    /// A request of no row.
    public static func none() -> QueryInterfaceRequest<Self> {
        all().none()
    }

    // MARK: - Selection

    /// `SELECT a, b, … FROM table`.
    public static func select(_ selection: any SQLSelectable...) -> QueryInterfaceRequest<Self> {
        all().select(selection)
    }

    /// `SELECT a, b, … FROM table`.
    public static func select(_ selection: [any SQLSelectable]) -> QueryInterfaceRequest<Self> {
        all().select(selection)
    }

    /// Selects one of the record's columns: `Player.select { $0.name }`.
    public static func select(
        _ selection: (DatabaseComponents) throws -> any SQLSelectable) rethrows -> QueryInterfaceRequest<Self>
    {
        try all().select([selection(databaseComponents)])
    }

    /// Selects some of the record's columns: `Player.select { [$0.id, $0.name] }`.
    public static func select(
        _ selection: (DatabaseComponents) throws -> [any SQLSelectable]) rethrows -> QueryInterfaceRequest<Self>
    {
        try all().select(selection(databaseComponents))
    }

    /// `SELECT sql FROM table`.
    public static func select(
        sql: String, arguments: StatementArguments = StatementArguments()) -> QueryInterfaceRequest<Self>
    {
        all().select(sql: sql, arguments: arguments)
    }

    /// `SELECT sqlLiteral FROM table`.
    public static func select(literal sqlLiteral: SQL) -> QueryInterfaceRequest<Self> {
        all().select(literal: sqlLiteral)
    }

    /// Selects, and fetches values of another type:
    /// `Player.select([max(Column("score"))], as: Int.self)`.
    public static func select<RowDecoder>(
        _ selection: [any SQLSelectable], as type: RowDecoder.Type = RowDecoder.self)
        -> QueryInterfaceRequest<RowDecoder>
    {
        all().select(selection, as: type)
    }

    /// Selects, and fetches values of another type:
    /// `Player.select(max(Column("score")), as: Int.self)`.
    public static func select<RowDecoder>(
        _ selection: any SQLSelectable..., as type: RowDecoder.Type = RowDecoder.self)
        -> QueryInterfaceRequest<RowDecoder>
    {
        all().select(selection, as: type)
    }

    /// Selects one of the record's columns, and fetches values of another
    /// type: `Player.select({ $0.name }, as: String.self)`.
    public static func select<RowDecoder>(
        _ selection: (DatabaseComponents) throws -> any SQLSelectable,
        as type: RowDecoder.Type = RowDecoder.self) rethrows -> QueryInterfaceRequest<RowDecoder>
    {
        try all().select([selection(databaseComponents)], as: type)
    }

    /// Selects raw SQL, and fetches values of another type.
    public static func select<RowDecoder>(
        sql: String, arguments: StatementArguments = StatementArguments(),
        as type: RowDecoder.Type = RowDecoder.self) -> QueryInterfaceRequest<RowDecoder>
    {
        all().select(sql: sql, arguments: arguments, as: type)
    }

    /// Selects an SQL literal, and fetches values of another type.
    public static func select<RowDecoder>(
        literal sqlLiteral: SQL, as type: RowDecoder.Type = RowDecoder.self) -> QueryInterfaceRequest<RowDecoder>
    {
        all().select(literal: sqlLiteral, as: type)
    }

    /// Selects the primary key: `Player.selectPrimaryKey(as: Int64.self)`.
    /// A table without a primary key selects its rowid.
    public static func selectPrimaryKey<PrimaryKey>(
        as type: PrimaryKey.Type = PrimaryKey.self) -> QueryInterfaceRequest<PrimaryKey>
    {
        all().selectPrimaryKey(as: type)
    }

    /// Selects the ids of the records: `try Player.selectID().fetchAll(db)`.
    public static func selectID() -> QueryInterfaceRequest<Self.ID> where Self: Identifiable {
        all().selectID()
    }

    /// `SELECT *, a, b, … FROM table`.
    public static func annotated(with selection: [any SQLSelectable]) -> QueryInterfaceRequest<Self> {
        all().annotated(with: selection)
    }

    /// `SELECT *, a, b, … FROM table`.
    public static func annotated(with selection: any SQLSelectable...) -> QueryInterfaceRequest<Self> {
        all().annotated(with: selection)
    }

    /// Appends one of the record's columns to the selection.
    public static func annotated(
        with selection: (DatabaseComponents) throws -> any SQLSelectable) rethrows -> QueryInterfaceRequest<Self>
    {
        try all().annotated(with: [selection(databaseComponents)])
    }

    /// Appends some of the record's columns to the selection.
    public static func annotated(
        with selection: (DatabaseComponents) throws -> [any SQLSelectable]) rethrows -> QueryInterfaceRequest<Self>
    {
        try all().annotated(with: selection(databaseComponents))
    }

    // MARK: - Filter

    /// `… WHERE predicate`: `Player.filter(Column("score") > 1000)`.
    ///
    /// The predicate is an SQL expression: `Player.filter(true)` does not
    /// compile.
    public static func filter(_ predicate: some SQLSpecificExpressible) -> QueryInterfaceRequest<Self> {
        all().filter(predicate)
    }

    /// Filters with the record's columns: `Player.filter { $0.score > 1000 }`.
    public static func filter(
        _ predicate: (DatabaseComponents) throws -> any SQLSpecificExpressible) rethrows -> QueryInterfaceRequest<Self>
    {
        let predicate = try predicate(databaseComponents).sqlExpression
        return all().filterWhenConnected { _ in predicate }
    }

    /// `… WHERE pk = key`.
    public static func filter(key: some DatabaseValueConvertible) -> QueryInterfaceRequest<Self> {
        all().filter(key: key)
    }

    /// `… WHERE pk IN (keys)`.
    public static func filter(keys: some Collection<some DatabaseValueConvertible>) -> QueryInterfaceRequest<Self> {
        all().filter(keys: keys)
    }

    /// `… WHERE a = ? AND b = ?`, for a primary or unique key; no row for nil.
    public static func filter(key: [String: (any DatabaseValueConvertible)?]?) -> QueryInterfaceRequest<Self> {
        all().filter(key: key)
    }

    /// `… WHERE (a = ? AND b = ?) OR …`, for primary or unique keys.
    public static func filter(keys: [[String: (any DatabaseValueConvertible)?]]) -> QueryInterfaceRequest<Self> {
        all().filter(keys: keys)
    }

    /// `… WHERE sql`.
    public static func filter(
        sql: String, arguments: StatementArguments = StatementArguments()) -> QueryInterfaceRequest<Self>
    {
        all().filter(sql: sql, arguments: arguments)
    }

    /// `… WHERE sqlLiteral`.
    public static func filter(literal sqlLiteral: SQL) -> QueryInterfaceRequest<Self> {
        all().filter(literal: sqlLiteral)
    }

    // MARK: - Order

    /// `… ORDER BY a, b, …`.
    public static func order(_ orderings: any SQLOrderingTerm...) -> QueryInterfaceRequest<Self> {
        all().order(orderings)
    }

    /// `… ORDER BY a, b, …`.
    public static func order(_ orderings: [any SQLOrderingTerm]) -> QueryInterfaceRequest<Self> {
        all().order(orderings)
    }

    /// Orders by one of the record's columns: `Player.order { $0.score.desc }`.
    public static func order(
        _ ordering: (DatabaseComponents) throws -> any SQLOrderingTerm) rethrows -> QueryInterfaceRequest<Self>
    {
        try all().order([ordering(databaseComponents)])
    }

    /// Orders by some of the record's columns.
    public static func order(
        _ orderings: (DatabaseComponents) throws -> [any SQLOrderingTerm]) rethrows -> QueryInterfaceRequest<Self>
    {
        try all().order(orderings(databaseComponents))
    }

    /// `… ORDER BY pk`: by primary key, or by rowid.
    public static func orderByPrimaryKey() -> QueryInterfaceRequest<Self> {
        all().orderByPrimaryKey()
    }

    /// `… ORDER BY sql`.
    public static func order(
        sql: String, arguments: StatementArguments = StatementArguments()) -> QueryInterfaceRequest<Self>
    {
        all().order(sql: sql, arguments: arguments)
    }

    /// `… ORDER BY sqlLiteral`.
    public static func order(literal sqlLiteral: SQL) -> QueryInterfaceRequest<Self> {
        all().order(literal: sqlLiteral)
    }

    // MARK: - Limit

    /// `… LIMIT limit OFFSET offset`.
    public static func limit(_ limit: Int, offset: Int? = nil) -> QueryInterfaceRequest<Self> {
        all().limit(limit, offset: offset)
    }
}

extension TableRecord where Self: Identifiable, ID: DatabaseValueConvertible {
    /// `… WHERE id = ?`.
    public static func filter(id: ID) -> QueryInterfaceRequest<Self> {
        all().filter(id: id)
    }

    /// `… WHERE id IN (…)`.
    public static func filter(ids: some Collection<ID>) -> QueryInterfaceRequest<Self> {
        all().filter(ids: ids)
    }
}
