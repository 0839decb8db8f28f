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

    /// What the closures of the query interface receive:
    /// `Player.filter { $0.score > 1000 }`. By default, `Columns.self`.
    associatedtype DatabaseComponents = Columns.Type

    /// The value given to the closures of the query interface.
    static var databaseComponents: DatabaseComponents { get }
}

extension TableRecord {
    public static var databaseTableName: String {
        defaultDatabaseTableName(for: Self.self)
    }

    public static var databaseSelection: [any SQLSelectable] {
        [AllColumns()]
    }

    /// The number of columns that a request of the record selects: those
    /// of its ``databaseSelection``, `*` counted from the table's schema.
    ///
    /// ```swift
    /// struct PartialPlayer: TableRecord {
    ///     static let databaseTableName = "player"
    ///     static let databaseSelection: [any SQLSelectable] = [Column("id"), Column("name")]
    /// }
    /// try Player.numberOfSelectedColumns(db)        // 3
    /// try PartialPlayer.numberOfSelectedColumns(db) // 2
    /// ```
    public static func numberOfSelectedColumns(_ db: Database) throws -> Int {
        try databaseSelection.map(\.sqlSelection)
            .columnCount(SelectedTables(db: db, commonTableExpressions: []), alias: TableAliasBase(tableName: databaseTableName))
    }
}

extension TableRecord where DatabaseComponents == Columns.Type {
    public static var databaseComponents: DatabaseComponents { Columns.self }
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
        // A NULL key identifies no row: no need to hit the database.
        if key.databaseValue.isNull { return false }
        return try filter(key: key).deleteAll(db) > 0
    }

    /// Deletes the row with this primary or unique key; returns whether it existed.
    @discardableResult
    public static func deleteOne(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Bool {
        try filter(key: key).deleteAll(db) > 0
    }

    /// Updates all rows; returns the number of updated rows.
    ///
    /// ```swift
    /// try Player.updateAll(db, Column("score").set(to: 0))
    /// ```
    @discardableResult
    public static func updateAll(_ db: Database, onConflict: Database.ConflictResolution? = nil,
                                 _ assignments: ColumnAssignment...) throws -> Int {
        try all().updateAll(db, onConflict: onConflict, assignments)
    }

    /// Updates all rows; returns the number of updated rows.
    @discardableResult
    public static func updateAll(_ db: Database, onConflict: Database.ConflictResolution? = nil,
                                 _ assignments: [ColumnAssignment]) throws -> Int {
        try all().updateAll(db, onConflict: onConflict, assignments)
    }

    /// Updates all rows with an assignment of the record's columns:
    /// `try Player.updateAll(db) { $0.score.set(to: 0) }`.
    @discardableResult
    public static func updateAll(_ db: Database, onConflict: Database.ConflictResolution? = nil,
                                 assignment: (DatabaseComponents) throws -> ColumnAssignment) throws -> Int {
        try all().updateAll(db, onConflict: onConflict, [assignment(databaseComponents)])
    }

    /// Updates all rows with assignments of the record's columns:
    /// `try Player.updateAll(db) { [$0.score.set(to: 0), $0.bonus.set(to: 0)] }`.
    @discardableResult
    public static func updateAll(_ db: Database, onConflict: Database.ConflictResolution? = nil,
                                 assignments: (DatabaseComponents) throws -> [ColumnAssignment]) throws -> Int {
        try all().updateAll(db, onConflict: onConflict, assignments(databaseComponents))
    }
}

extension TableRecord where Self: Identifiable, ID: DatabaseValueConvertible {
    /// Whether a row has this id.
    public static func exists(_ db: Database, id: ID) throws -> Bool {
        // A nil id identifies no row: no need to hit the database.
        if id.databaseValue.isNull { return false }
        return try exists(db, key: id)
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
    /// Whether the request returns no row: `SELECT EXISTS (SELECT …)`, as
    /// in GRDB.
    public func isEmpty(_ db: Database) throws -> Bool {
        try !Bool.fetchOne(db, SQLRequest<Bool>("SELECT \(exists())"))!
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
        return try db.countingChanges(in: query.tableName) {
            try db.execute(sql: sql, arguments: context.arguments)
        }
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

    /// Updates the rows of the request; returns their number. Without
    /// assignment, it does not hit the database.
    ///
    /// The default conflict resolution is the one of the
    /// ``MutablePersistableRecord/persistenceConflictPolicy`` of a record
    /// type, or `ABORT`.
    @discardableResult
    public func updateAll(_ db: Database, onConflict: Database.ConflictResolution? = nil,
                          _ assignments: [ColumnAssignment]) throws -> Int {
        guard !assignments.isEmpty else { return 0 }
        let conflictResolution = onConflict
            ?? (RowDecoder.self as? any MutablePersistableRecord.Type)?.persistenceConflictPolicy.conflictResolutionForUpdate
        let context = SQLGenerationContext(db)
        let sql = try query.updateSQL(context, assignments: assignments, conflictResolution: conflictResolution)
        return try db.countingChanges(in: query.tableName) {
            try db.execute(sql: sql, arguments: context.arguments)
        }
    }
}

extension QueryInterfaceRequest where RowDecoder: TableRecord {
    /// Updates the rows of the request with an assignment of the record's
    /// columns: `try Player.filter { $0.score < 0 }.updateAll(db) { $0.score.set(to: 0) }`.
    @discardableResult
    public func updateAll(_ db: Database, onConflict: Database.ConflictResolution? = nil,
                          assignment: (DatabaseComponents) throws -> ColumnAssignment) throws -> Int {
        try updateAll(db, onConflict: onConflict, [assignment(RowDecoder.databaseComponents)])
    }

    /// Updates the rows of the request with assignments of the record's
    /// columns.
    @discardableResult
    public func updateAll(_ db: Database, onConflict: Database.ConflictResolution? = nil,
                          assignments: (DatabaseComponents) throws -> [ColumnAssignment]) throws -> Int {
        try updateAll(db, onConflict: onConflict, assignments(RowDecoder.databaseComponents))
    }
}

extension Database {
    /// Runs a statement that changes a table or a view, and returns the
    /// number of changed rows. SQLite does not count the rows that the
    /// INSTEAD OF triggers of a view change in `sqlite3_changes`, but
    /// does in `sqlite3_total_changes`.
    ///
    /// See <https://www.sqlite.org/c3ref/changes.html>.
    func countingChanges(in tableName: String, _ execute: () throws -> Void) throws -> Int {
        guard try cachedViewExists(tableName) else {
            try execute()
            return changesCount
        }
        let totalChangesBefore = totalChangesCount
        try execute()
        return totalChangesCount - totalChangesBefore
    }
}
