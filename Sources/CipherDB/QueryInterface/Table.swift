/// A database table, for requests without a record type.
///
/// ```swift
/// let playerTable = Table("player")
/// let count = try playerTable.filter(Column("score") > 1000).fetchCount(db)
/// let rows = try playerTable.order(Column("name")).fetchAll(db)     // [Row]
/// try playerTable.filter(key: 1).deleteAll(db)
///
/// // Fetching records:
/// let players = try Table<Player>("player").fetchAll(db)           // [Player]
/// ```
///
/// `Table("player")` fetches rows; `Table<Player>("player")` fetches what
/// its `RowDecoder` decodes. Every request starts as `SELECT *`.
public struct Table<RowDecoder>: Sendable {
    /// The table name.
    public var tableName: String

    /// A table whose requests fetch `RowDecoder`.
    public init(_ tableName: String) {
        self.tableName = tableName
    }
}

extension Table where RowDecoder == Row {
    /// A table whose requests fetch rows.
    public init(_ tableName: String) {
        self.tableName = tableName
    }
}

extension Table: DatabaseRegionConvertible {
    /// The whole table.
    public func databaseRegion(_ db: Database) throws -> DatabaseRegion {
        DatabaseRegion(table: tableName)
    }
}

// MARK: - Requests

extension Table {
    /// A request of all rows: `SELECT * FROM table`.
    public func all() -> QueryInterfaceRequest<RowDecoder> {
        QueryInterfaceRequest(tableName: tableName, selection: [AllColumns().sqlSelection])
    }

    /// A request of no row.
    public func none() -> QueryInterfaceRequest<RowDecoder> {
        all().none()
    }

    /// `SELECT a, b, … FROM table`.
    public func select(_ selection: any SQLSelectable...) -> QueryInterfaceRequest<RowDecoder> {
        all().select(selection)
    }

    /// `SELECT a, b, … FROM table`.
    public func select(_ selection: [any SQLSelectable]) -> QueryInterfaceRequest<RowDecoder> {
        all().select(selection)
    }

    /// `SELECT sql FROM table`.
    public func select(
        sql: String, arguments: StatementArguments = StatementArguments()) -> QueryInterfaceRequest<RowDecoder>
    {
        all().select(sql: sql, arguments: arguments)
    }

    /// `SELECT sqlLiteral FROM table`.
    public func select(literal sqlLiteral: SQL) -> QueryInterfaceRequest<RowDecoder> {
        all().select(literal: sqlLiteral)
    }

    /// Selects, and fetches values of another type:
    /// `Table("player").select([max(Column("score"))], as: Int.self)`.
    public func select<T>(_ selection: [any SQLSelectable], as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        all().select(selection, as: type)
    }

    /// Selects, and fetches values of another type.
    public func select<T>(_ selection: any SQLSelectable..., as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        all().select(selection, as: type)
    }

    /// Selects raw SQL, and fetches values of another type.
    public func select<T>(
        sql: String, arguments: StatementArguments = StatementArguments(),
        as type: T.Type = T.self) -> QueryInterfaceRequest<T>
    {
        all().select(sql: sql, arguments: arguments, as: type)
    }

    /// Selects an SQL literal, and fetches values of another type.
    public func select<T>(literal sqlLiteral: SQL, as type: T.Type = T.self) -> QueryInterfaceRequest<T> {
        all().select(literal: sqlLiteral, as: type)
    }

    /// Selects the primary key (the rowid for a table without one).
    public func selectPrimaryKey<PrimaryKey>(
        as type: PrimaryKey.Type = PrimaryKey.self) -> QueryInterfaceRequest<PrimaryKey>
    {
        all().selectPrimaryKey(as: type)
    }

    /// Selects the ids of the records.
    public func selectID() -> QueryInterfaceRequest<RowDecoder.ID> where RowDecoder: Identifiable {
        all().selectID()
    }

    /// `SELECT *, a, b, … FROM table`.
    public func annotated(with selection: [any SQLSelectable]) -> QueryInterfaceRequest<RowDecoder> {
        all().annotated(with: selection)
    }

    /// `SELECT *, a, b, … FROM table`.
    public func annotated(with selection: any SQLSelectable...) -> QueryInterfaceRequest<RowDecoder> {
        all().annotated(with: selection)
    }

    /// `… WHERE predicate`; the predicate is an SQL expression.
    public func filter(_ predicate: some SQLSpecificExpressible) -> QueryInterfaceRequest<RowDecoder> {
        all().filter(predicate)
    }

    /// `… WHERE pk = key`.
    public func filter(key: some DatabaseValueConvertible) -> QueryInterfaceRequest<RowDecoder> {
        all().filter(key: key)
    }

    /// `… WHERE pk IN (keys)`.
    public func filter(keys: some Collection<some DatabaseValueConvertible>) -> QueryInterfaceRequest<RowDecoder> {
        all().filter(keys: keys)
    }

    /// `… WHERE a = ? AND b = ?`, for a primary or unique key; no row for nil.
    public func filter(key: [String: (any DatabaseValueConvertible)?]?) -> QueryInterfaceRequest<RowDecoder> {
        all().filter(key: key)
    }

    /// `… WHERE (a = ? AND b = ?) OR …`, for primary or unique keys.
    public func filter(keys: [[String: (any DatabaseValueConvertible)?]]) -> QueryInterfaceRequest<RowDecoder> {
        all().filter(keys: keys)
    }

    /// `… WHERE sql`.
    public func filter(
        sql: String, arguments: StatementArguments = StatementArguments()) -> QueryInterfaceRequest<RowDecoder>
    {
        all().filter(sql: sql, arguments: arguments)
    }

    /// `… WHERE sqlLiteral`.
    public func filter(literal sqlLiteral: SQL) -> QueryInterfaceRequest<RowDecoder> {
        all().filter(literal: sqlLiteral)
    }

    /// `… ORDER BY a, b, …`.
    public func order(_ orderings: any SQLOrderingTerm...) -> QueryInterfaceRequest<RowDecoder> {
        all().order(orderings)
    }

    /// `… ORDER BY a, b, …`.
    public func order(_ orderings: [any SQLOrderingTerm]) -> QueryInterfaceRequest<RowDecoder> {
        all().order(orderings)
    }

    /// `… ORDER BY` the primary key, or the rowid.
    public func orderByPrimaryKey() -> QueryInterfaceRequest<RowDecoder> {
        all().orderByPrimaryKey()
    }

    /// `… ORDER BY sql`.
    public func order(
        sql: String, arguments: StatementArguments = StatementArguments()) -> QueryInterfaceRequest<RowDecoder>
    {
        all().order(sql: sql, arguments: arguments)
    }

    /// `… ORDER BY sqlLiteral`.
    public func order(literal sqlLiteral: SQL) -> QueryInterfaceRequest<RowDecoder> {
        all().order(literal: sqlLiteral)
    }

    /// `… LIMIT limit OFFSET offset`.
    public func limit(_ limit: Int, offset: Int? = nil) -> QueryInterfaceRequest<RowDecoder> {
        all().limit(limit, offset: offset)
    }
}

extension Table where RowDecoder: Identifiable, RowDecoder.ID: DatabaseValueConvertible {
    /// `… WHERE id = ?`.
    public func filter(id: RowDecoder.ID) -> QueryInterfaceRequest<RowDecoder> {
        all().filter(id: id)
    }

    /// `… WHERE id IN (…)`.
    public func filter(ids: some Collection<RowDecoder.ID>) -> QueryInterfaceRequest<RowDecoder> {
        all().filter(ids: ids)
    }
}

extension Table where RowDecoder: TableRecord {
    public typealias DatabaseComponents = RowDecoder.DatabaseComponents
}

// MARK: - Fetching

extension Table {
    /// The number of rows in the table.
    public func fetchCount(_ db: Database) throws -> Int {
        try all().fetchCount(db)
    }
}

extension Table where RowDecoder == Row {
    /// A cursor over all rows of the table.
    public func fetchCursor(_ db: Database) throws -> RowCursor {
        try all().fetchCursor(db)
    }

    /// All rows of the table.
    public func fetchAll(_ db: Database) throws -> [Row] {
        try all().fetchAll(db)
    }

    /// The set of all rows of the table.
    public func fetchSet(_ db: Database) throws -> Set<Row> {
        try all().fetchSet(db)
    }

    /// A row of the table, if any.
    public func fetchOne(_ db: Database) throws -> Row? {
        try all().fetchOne(db)
    }
}

extension Table where RowDecoder: FetchableRecord {
    /// A cursor over all records of the table.
    public func fetchCursor(_ db: Database) throws -> RecordCursor<RowDecoder> {
        try all().fetchCursor(db)
    }

    /// All records of the table.
    public func fetchAll(_ db: Database) throws -> [RowDecoder] {
        try all().fetchAll(db)
    }

    /// A record of the table, if any.
    public func fetchOne(_ db: Database) throws -> RowDecoder? {
        try all().fetchOne(db)
    }
}

extension Table where RowDecoder: FetchableRecord & Hashable {
    /// The set of all records of the table.
    public func fetchSet(_ db: Database) throws -> Set<RowDecoder> {
        try all().fetchSet(db)
    }
}

extension Table where RowDecoder: DatabaseValueConvertible {
    /// A cursor over the values of the first column.
    public func fetchCursor(_ db: Database) throws -> DatabaseValueCursor<RowDecoder> {
        try all().fetchCursor(db)
    }

    /// The values of the first column.
    public func fetchAll(_ db: Database) throws -> [RowDecoder] {
        try all().fetchAll(db)
    }

    /// The value of the first column of the first row, if any.
    public func fetchOne(_ db: Database) throws -> RowDecoder? {
        try all().fetchOne(db)
    }
}

extension Table where RowDecoder: DatabaseValueConvertible & Hashable {
    /// The set of the values of the first column.
    public func fetchSet(_ db: Database) throws -> Set<RowDecoder> {
        try all().fetchSet(db)
    }
}

extension Table where RowDecoder: DatabaseValueConvertible & StatementColumnConvertible {
    /// A cursor over the values of the first column.
    public func fetchCursor(_ db: Database) throws -> FastDatabaseValueCursor<RowDecoder> {
        try all().fetchCursor(db)
    }

    /// The values of the first column.
    public func fetchAll(_ db: Database) throws -> [RowDecoder] {
        try all().fetchAll(db)
    }

    /// The value of the first column of the first row, if any.
    public func fetchOne(_ db: Database) throws -> RowDecoder? {
        try all().fetchOne(db)
    }
}

extension Table where RowDecoder: DatabaseValueConvertible & StatementColumnConvertible & Hashable {
    /// The set of the values of the first column.
    public func fetchSet(_ db: Database) throws -> Set<RowDecoder> {
        try all().fetchSet(db)
    }
}

// MARK: - Existence, deletion, batch updates

extension Table {
    /// Whether a row has this primary key.
    public func exists(_ db: Database, key: some DatabaseValueConvertible) throws -> Bool {
        try !filter(key: key).isEmpty(db)
    }

    /// Whether a row has this primary or unique key.
    public func exists(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Bool {
        try !filter(key: key).isEmpty(db)
    }

    /// Deletes all rows; returns their number.
    @discardableResult
    public func deleteAll(_ db: Database) throws -> Int {
        try all().deleteAll(db)
    }

    /// Deletes the rows with these primary keys; returns their number.
    @discardableResult
    public func deleteAll(_ db: Database, keys: some Collection<some DatabaseValueConvertible>) throws -> Int {
        if keys.isEmpty { return 0 }
        return try filter(keys: keys).deleteAll(db)
    }

    /// Deletes the row with this primary key; returns whether it existed.
    @discardableResult
    public func deleteOne(_ db: Database, key: some DatabaseValueConvertible) throws -> Bool {
        // A NULL key identifies no row: no need to hit the database.
        if key.databaseValue.isNull { return false }
        return try filter(key: key).deleteAll(db) > 0
    }

    /// Deletes the rows with these primary or unique keys; returns their number.
    @discardableResult
    public func deleteAll(_ db: Database, keys: [[String: (any DatabaseValueConvertible)?]]) throws -> Int {
        if keys.isEmpty { return 0 }
        return try filter(keys: keys).deleteAll(db)
    }

    /// Deletes the row with this primary or unique key; returns whether it existed.
    @discardableResult
    public func deleteOne(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Bool {
        try filter(key: key).deleteAll(db) > 0
    }

    /// Updates all rows; returns their number:
    /// `try Table("player").updateAll(db, Column("score").set(to: 0))`.
    @discardableResult
    public func updateAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: [ColumnAssignment]) throws -> Int
    {
        try all().updateAll(db, onConflict: conflictResolution, assignments)
    }

    /// Updates all rows; returns their number.
    @discardableResult
    public func updateAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        _ assignments: ColumnAssignment...) throws -> Int
    {
        try all().updateAll(db, onConflict: conflictResolution, assignments)
    }
}

extension Table where RowDecoder: Identifiable, RowDecoder.ID: DatabaseValueConvertible {
    /// Whether a row has this id.
    public func exists(_ db: Database, id: RowDecoder.ID) throws -> Bool {
        // A nil id identifies no row: no need to hit the database.
        if id.databaseValue.isNull { return false }
        return try exists(db, key: id)
    }

    /// Deletes the rows with these ids; returns their number.
    @discardableResult
    public func deleteAll(_ db: Database, ids: some Collection<RowDecoder.ID>) throws -> Int {
        try deleteAll(db, keys: ids)
    }

    /// Deletes the row with this id; returns whether it existed.
    @discardableResult
    public func deleteOne(_ db: Database, id: RowDecoder.ID) throws -> Bool {
        try deleteOne(db, key: id)
    }
}

extension Table where RowDecoder: TableRecord {
    /// Updates all rows with an assignment of the record's columns:
    /// `try Table<Player>("player").updateAll(db) { $0.score.set(to: 0) }`.
    @discardableResult
    public func updateAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignment: (RowDecoder.DatabaseComponents) throws -> ColumnAssignment) throws -> Int
    {
        try all().updateAll(db, onConflict: conflictResolution, [assignment(RowDecoder.databaseComponents)])
    }

    /// Updates all rows with assignments of the record's columns.
    @discardableResult
    public func updateAll(
        _ db: Database, onConflict conflictResolution: Database.ConflictResolution? = nil,
        assignments: (RowDecoder.DatabaseComponents) throws -> [ColumnAssignment]) throws -> Int
    {
        try all().updateAll(db, onConflict: conflictResolution, assignments(RowDecoder.databaseComponents))
    }
}
