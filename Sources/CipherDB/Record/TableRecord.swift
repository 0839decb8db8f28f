import Foundation
import Synchronization

/// A type that is stored in a database table.
///
/// ```swift
/// struct Player: TableRecord {
///     static let databaseTableName = "player" // the default for `Player`
/// }
/// let count = try Player.fetchCount(db)
/// let request = Player.filter(Column("score") > 1000).order(Column("name"))
/// ```
public protocol TableRecord {
    /// The name of the table: by default, the type name with its leading
    /// capitals lowercased (`Player` → `player`, `HTTPRequest` → `httpRequest`).
    static var databaseTableName: String { get }

    /// The columns selected by requests of this type. Default: all columns.
    static var databaseSelection: [any SQLSelectable] { get }

    /// The columns of the record, for requests:
    /// `enum Columns { static let name = Column(CodingKeys.name) }`.
    associatedtype Columns = Never
}

extension TableRecord {
    public static var databaseTableName: String {
        defaultDatabaseTableName(for: Self.self)
    }

    public static var databaseSelection: [any SQLSelectable] {
        [AllColumns()]
    }
}

/// `Player` → `player`, `HTTPRequest` → `httpRequest`, `URL` → `url`,
/// `Outer.Inner` → `inner`, `Box<Int>` → `box`.
func defaultDatabaseTableName(for type: Any.Type) -> String {
    // Records ask for their table at each insert or update: the name of a
    // type is costly to describe, so each is computed once.
    let key = ObjectIdentifier(type)
    if let name = defaultTableNames.withLock({ $0[key] }) { return name }
    let name = makeDefaultDatabaseTableName(for: type)
    defaultTableNames.withLock { $0[key] = name }
    return name
}

private let defaultTableNames = Mutex<[ObjectIdentifier: String]>([:])

private func makeDefaultDatabaseTableName(for type: Any.Type) -> String {
    var name = String(describing: type)
    if let index = name.firstIndex(of: "<") { name = String(name[..<index]) }
    if let index = name.lastIndex(of: ".") { name = String(name[name.index(after: index)...]) }
    let characters = Array(name)
    var uppercasePrefix = 0
    while uppercasePrefix < characters.count && characters[uppercasePrefix].isUppercase {
        uppercasePrefix += 1
    }
    // In "HTTPRequest", the "R" starts the next word.
    if uppercasePrefix > 1 && uppercasePrefix < characters.count {
        uppercasePrefix -= 1
    }
    return characters[..<uppercasePrefix].map { $0.lowercased() }.joined() + String(characters[uppercasePrefix...])
}

// MARK: - Requests

extension TableRecord {
    /// A request of all rows: `try Player.all().fetchAll(db)`.
    public static func all() -> QueryInterfaceRequest<Self> {
        QueryInterfaceRequest(tableName: databaseTableName, selection: databaseSelection.map(\.sqlSelection))
    }

    /// A request of no row.
    public static func none() -> QueryInterfaceRequest<Self> {
        all().none()
    }

    /// `SELECT selection FROM table`.
    public static func select(_ selection: any SQLSelectable...) -> QueryInterfaceRequest<Self> {
        all().select(selection)
    }

    /// `SELECT selection FROM table`, fetching values of another type.
    public static func select<T>(_ selection: any SQLSelectable..., as type: T.Type) -> QueryInterfaceRequest<T> {
        all().select(selection).asRequest(of: T.self)
    }

    /// `SELECT sql FROM table`.
    public static func select(sql: String, arguments: StatementArguments = StatementArguments()) -> QueryInterfaceRequest<Self> {
        all().select(sql: sql, arguments: arguments)
    }

    /// `SELECT sql FROM table`, fetching values of another type.
    public static func select<T>(sql: String, arguments: StatementArguments = StatementArguments(), as type: T.Type) -> QueryInterfaceRequest<T> {
        all().select(sql: sql, arguments: arguments).asRequest(of: T.self)
    }

    /// `SELECT * , selection FROM table`.
    public static func annotated(with selection: any SQLSelectable...) -> QueryInterfaceRequest<Self> {
        all().annotated(with: selection)
    }

    /// `… WHERE predicate`.
    public static func filter(_ predicate: some SQLExpressible) -> QueryInterfaceRequest<Self> {
        all().filter(predicate)
    }

    /// `… WHERE sql`.
    public static func filter(sql: String, arguments: StatementArguments = StatementArguments()) -> QueryInterfaceRequest<Self> {
        all().filter(sql: sql, arguments: arguments)
    }

    /// `… WHERE sqlLiteral`.
    public static func filter(literal sqlLiteral: SQL) -> QueryInterfaceRequest<Self> {
        all().filter(literal: sqlLiteral)
    }

    /// `… WHERE pk = key`.
    public static func filter(key: some DatabaseValueConvertible) -> QueryInterfaceRequest<Self> {
        all().filter(key: key)
    }

    /// `… WHERE pk IN (keys)`.
    public static func filter(keys: some Collection<some DatabaseValueConvertible>) -> QueryInterfaceRequest<Self> {
        all().filter(keys: keys)
    }

    /// `… WHERE a = ? AND b = ?`, for a primary or unique key.
    public static func filter(key: [String: (any DatabaseValueConvertible)?]) -> QueryInterfaceRequest<Self> {
        all().filter(key: key)
    }

    /// `… WHERE (a = ? AND b = ?) OR …`, for primary or unique keys.
    public static func filter(keys: [[String: (any DatabaseValueConvertible)?]]) -> QueryInterfaceRequest<Self> {
        all().filter(keys: keys)
    }

    /// `… ORDER BY orderings`.
    public static func order(_ orderings: any SQLOrderingTerm...) -> QueryInterfaceRequest<Self> {
        all().order(orderings)
    }

    /// `… ORDER BY sql`.
    public static func order(sql: String, arguments: StatementArguments = StatementArguments()) -> QueryInterfaceRequest<Self> {
        all().order(sql: sql, arguments: arguments)
    }

    /// `… LIMIT limit OFFSET offset`.
    public static func limit(_ limit: Int, offset: Int? = nil) -> QueryInterfaceRequest<Self> {
        all().limit(limit, offset: offset)
    }

    /// `… GROUP BY expressions`.
    public static func group(_ expressions: any SQLExpressible...) -> QueryInterfaceRequest<Self> {
        all().group(expressions)
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

// MARK: - Counting, existence, deletion, batch updates

extension TableRecord {
    /// The number of rows in the table.
    public static func fetchCount(_ db: Database) throws -> Int {
        try all().fetchCount(db)
    }

    /// Whether a row has this primary key.
    public static func exists(_ db: Database, key: some DatabaseValueConvertible) throws -> Bool {
        try filter(key: key).isEmpty(db) == false
    }

    /// Whether a row has this primary or unique key.
    public static func exists(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Bool {
        try filter(key: key).isEmpty(db) == false
    }

    /// Deletes all rows; returns the number of deleted rows.
    @discardableResult
    public static func deleteAll(_ db: Database) throws -> Int {
        try all().deleteAll(db)
    }

    /// Deletes the rows with these primary keys; returns their number.
    @discardableResult
    public static func deleteAll(_ db: Database, keys: some Collection<some DatabaseValueConvertible>) throws -> Int {
        guard !keys.isEmpty else { return 0 }
        return try filter(keys: keys).deleteAll(db)
    }

    /// Deletes the rows with these primary or unique keys; returns their number.
    @discardableResult
    public static func deleteAll(_ db: Database, keys: [[String: (any DatabaseValueConvertible)?]]) throws -> Int {
        guard !keys.isEmpty else { return 0 }
        return try filter(keys: keys).deleteAll(db)
    }

    /// Deletes the row with this primary key; returns whether it existed.
    @discardableResult
    public static func deleteOne(_ db: Database, key: some DatabaseValueConvertible) throws -> Bool {
        try filter(key: key).deleteAll(db) > 0
    }

    /// Deletes the row with this primary or unique key; returns whether it existed.
    @discardableResult
    public static func deleteOne(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Bool {
        try filter(key: key).deleteAll(db) > 0
    }

    /// Updates all rows; returns the number of updated rows.
    @discardableResult
    public static func updateAll(_ db: Database, onConflict: Database.ConflictResolution? = nil,
                                 _ assignments: ColumnAssignment...) throws -> Int {
        try all().updateAll(db, onConflict: onConflict, assignments)
    }
}

extension TableRecord where Self: Identifiable, ID: DatabaseValueConvertible {
    /// Whether a row has this id.
    public static func exists(_ db: Database, id: ID) throws -> Bool {
        try exists(db, key: id)
    }

    /// Deletes the row with this id; returns whether it existed.
    @discardableResult
    public static func deleteOne(_ db: Database, id: ID) throws -> Bool {
        try deleteOne(db, key: id)
    }

    /// Deletes the rows with these ids; returns their number.
    @discardableResult
    public static func deleteAll(_ db: Database, ids: some Collection<ID>) throws -> Int {
        try deleteAll(db, keys: ids)
    }
}

extension QueryInterfaceRequest {
    /// Whether the request returns no row.
    public func isEmpty(_ db: Database) throws -> Bool {
        var probe = self
        probe.query.selection = [SQLSelection(.literal("1"))]
        probe.query.orderings = []
        probe.query.isReversed = false
        return try Row.fetchOne(probe.makePreparedRequest(db, forSingleResult: true).statement) == nil
    }

    /// Deletes the rows of the request; returns their number.
    ///
    /// ```swift
    /// try Player.filter(Column("score") < 10).deleteAll(db)
    /// try Player.order(sql: "RANDOM()").limit(1).deleteAll(db)
    /// ```
    @discardableResult
    public func deleteAll(_ db: Database) throws -> Int {
        let context = SQLGenerationContext(db)
        let sql = try query.deleteSQL(context)
        try db.execute(sql: sql, arguments: context.arguments)
        return db.changesCount
    }

    /// Updates the rows of the request; returns their number.
    ///
    /// ```swift
    /// try Player.filter(Column("team") == "red").updateAll(db, Column("score").set(to: 0))
    /// ```
    @discardableResult
    public func updateAll(_ db: Database, onConflict: Database.ConflictResolution? = nil,
                          _ assignments: ColumnAssignment...) throws -> Int {
        try updateAll(db, onConflict: onConflict, assignments)
    }

    /// Updates the rows of the request; returns their number.
    @discardableResult
    public func updateAll(_ db: Database, onConflict: Database.ConflictResolution? = nil,
                          _ assignments: [ColumnAssignment]) throws -> Int {
        guard !assignments.isEmpty else { return 0 }
        let context = SQLGenerationContext(db)
        let sql = try query.updateSQL(context, assignments: assignments, conflictResolution: onConflict)
        try db.execute(sql: sql, arguments: context.arguments)
        return db.changesCount
    }
}
