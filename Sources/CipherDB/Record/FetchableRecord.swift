import Foundation

/// A type that can be decoded from a database row.
///
/// ```swift
/// struct Player: Decodable, FetchableRecord { // init(row:) comes for free
///     var id: Int64
///     var name: String
/// }
/// let players = try Player.fetchAll(db, sql: "SELECT * FROM player")
/// ```
public protocol FetchableRecord {
    /// Decodes a record from a row. Rows from cursors are reused: copy the
    /// row (`row.copy()`) if you keep it.
    init(row: Row) throws

    /// Options for the decoding of `Decodable` records, given to their
    /// `init(from:)` and to the default JSON decoder.
    static var databaseDecodingUserInfo: [CodingUserInfoKey: Any] { get }

    /// The JSON decoder of the nested `Decodable` values of a column,
    /// stored as JSON text.
    static func databaseJSONDecoder(for column: String) -> JSONDecoder

    /// How `Data` properties are decoded. Default: `.deferredToData`.
    ///
    /// ```swift
    /// static func databaseDataDecodingStrategy(for column: String) -> DatabaseDataDecodingStrategy {
    ///     .custom { dbValue in String.fromDatabaseValue(dbValue).map { Data($0.utf8) } }
    /// }
    /// ```
    static func databaseDataDecodingStrategy(for column: String) -> DatabaseDataDecodingStrategy

    /// How `Date` properties are decoded. Default: `.deferredToDate` (the
    /// formats of ``Date``'s database conversion).
    ///
    /// ```swift
    /// static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
    ///     .timeIntervalSince1970
    /// }
    /// ```
    static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy

    /// How coding keys map to column names. Default: unchanged.
    static var databaseColumnDecodingStrategy: DatabaseColumnDecodingStrategy { get }
}

extension FetchableRecord {
    public static var databaseDecodingUserInfo: [CodingUserInfoKey: Any] { [:] }

    public static func databaseJSONDecoder(for column: String) -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dataDecodingStrategy = .base64
        decoder.dateDecodingStrategy = .millisecondsSince1970
        decoder.nonConformingFloatDecodingStrategy = .throw
        decoder.userInfo = sendableUserInfo(databaseDecodingUserInfo)
        return decoder
    }

    public static func databaseDataDecodingStrategy(for column: String) -> DatabaseDataDecodingStrategy { .deferredToData }

    public static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { .deferredToDate }

    public static var databaseColumnDecodingStrategy: DatabaseColumnDecodingStrategy { .useDefaultKeys }
}

// MARK: - Fetching from statements

extension FetchableRecord {
    /// A cursor over the records of a statement.
    public static func fetchCursor(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws -> RecordCursor<Self> {
        try RecordCursor(statement: statement, arguments: arguments, adapter: adapter)
    }

    /// All records of a statement.
    public static func fetchAll(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws -> [Self] {
        try Array(fetchCursor(statement, arguments: arguments, adapter: adapter))
    }

    /// The first record of a statement.
    public static func fetchOne(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws -> Self? {
        let cursor = try fetchCursor(statement, arguments: arguments, adapter: adapter)
        defer { sqlite3ResetQuietly(statement) }
        return try cursor.next()
    }
}

extension FetchableRecord where Self: Hashable {
    /// The set of the records of a statement.
    public static func fetchSet(_ statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws -> Set<Self> {
        try Set(fetchCursor(statement, arguments: arguments, adapter: adapter))
    }
}

// MARK: - Fetching from SQL

extension FetchableRecord {
    /// A cursor over the records of an SQL query.
    public static func fetchCursor(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments(), adapter: (any RowAdapter)? = nil) throws -> RecordCursor<Self> {
        try fetchCursor(db.cachedStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// All records of an SQL query.
    public static func fetchAll(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments(), adapter: (any RowAdapter)? = nil) throws -> [Self] {
        try fetchAll(db.cachedStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// The first record of an SQL query.
    public static func fetchOne(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments(), adapter: (any RowAdapter)? = nil) throws -> Self? {
        try fetchOne(db.cachedStatement(sql: sql), arguments: arguments, adapter: adapter)
    }

    /// All records of an SQL literal.
    public static func fetchAll(_ db: Database, literal sqlLiteral: SQL) throws -> [Self] {
        try fetchAll(db, SQLRequest<Self>(literal: sqlLiteral, cached: true))
    }

    /// The first record of an SQL literal.
    public static func fetchOne(_ db: Database, literal sqlLiteral: SQL) throws -> Self? {
        try fetchOne(db, SQLRequest<Self>(literal: sqlLiteral, cached: true))
    }
}

extension FetchableRecord where Self: Hashable {
    /// The set of the records of an SQL query.
    public static func fetchSet(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments(), adapter: (any RowAdapter)? = nil) throws -> Set<Self> {
        try fetchSet(db.cachedStatement(sql: sql), arguments: arguments, adapter: adapter)
    }
}

// MARK: - Fetching from requests

extension FetchableRecord {
    /// A cursor over the records decoded from the rows of a request,
    /// whatever type it fetches.
    ///
    /// ```swift
    /// let request = SQLRequest<Row>(sql: "SELECT * FROM player")
    /// let players = try Player.fetchCursor(db, request)
    /// ```
    public static func fetchCursor(_ db: Database, _ request: some FetchRequest) throws -> RecordCursor<Self> {
        let request = try request.makePreparedRequest(db, forSingleResult: false)
        precondition(request.supplementaryFetch == nil, "a request that fetches associated rows can not give a cursor")
        return try fetchCursor(request.statement, adapter: request.adapter)
    }

    /// All records decoded from the rows of a request.
    public static func fetchAll(_ db: Database, _ request: some FetchRequest) throws -> [Self] {
        let request = try request.makePreparedRequest(db, forSingleResult: false)
        guard let supplementaryFetch = request.supplementaryFetch else {
            return try fetchAll(request.statement, adapter: request.adapter)
        }
        let rows = try Row.fetchAll(request.statement, adapter: request.adapter)
        try supplementaryFetch(db, rows, nil)
        return try rows.map(Self.init(row:))
    }

    /// The first record decoded from the rows of a request.
    public static func fetchOne(_ db: Database, _ request: some FetchRequest) throws -> Self? {
        let request = try request.makePreparedRequest(db, forSingleResult: true)
        guard let supplementaryFetch = request.supplementaryFetch else {
            return try fetchOne(request.statement, adapter: request.adapter)
        }
        guard let row = try Row.fetchOne(request.statement, adapter: request.adapter) else { return nil }
        try supplementaryFetch(db, [row], nil)
        return try Self(row: row)
    }
}

extension FetchableRecord where Self: Hashable {
    /// The set of the records decoded from the rows of a request.
    public static func fetchSet(_ db: Database, _ request: some FetchRequest) throws -> Set<Self> {
        let request = try request.makePreparedRequest(db, forSingleResult: false)
        guard let supplementaryFetch = request.supplementaryFetch else {
            return try fetchSet(request.statement, adapter: request.adapter)
        }
        let rows = try Row.fetchAll(request.statement, adapter: request.adapter)
        try supplementaryFetch(db, rows, nil)
        return try Set(rows.map(Self.init(row:)))
    }
}

extension FetchRequest where RowDecoder: FetchableRecord {
    public func fetchCursor(_ db: Database) throws -> RecordCursor<RowDecoder> {
        try RowDecoder.fetchCursor(db, self)
    }

    public func fetchAll(_ db: Database) throws -> [RowDecoder] {
        try RowDecoder.fetchAll(db, self)
    }

    public func fetchOne(_ db: Database) throws -> RowDecoder? {
        try RowDecoder.fetchOne(db, self)
    }
}

extension FetchRequest where RowDecoder: FetchableRecord & Hashable {
    public func fetchSet(_ db: Database) throws -> Set<RowDecoder> {
        try RowDecoder.fetchSet(db, self)
    }
}

// MARK: - Fetching from the table

extension FetchableRecord where Self: TableRecord {
    /// A cursor over all records of the table.
    public static func fetchCursor(_ db: Database) throws -> RecordCursor<Self> {
        try all().fetchCursor(db)
    }

    /// All records of the table.
    public static func fetchAll(_ db: Database) throws -> [Self] {
        try all().fetchAll(db)
    }

    /// A record of the table, if any.
    public static func fetchOne(_ db: Database) throws -> Self? {
        try all().fetchOne(db)
    }

    /// The record with this primary key, if any. A NULL key does not hit
    /// the database.
    ///
    /// ```swift
    /// let player = try Player.fetchOne(db, key: 1) // SELECT * FROM player WHERE id = 1
    /// ```
    public static func fetchOne(_ db: Database, key: some DatabaseValueConvertible) throws -> Self? {
        if key.databaseValue.isNull { return nil }
        return try filter(key: key).fetchOne(db)
    }

    /// The record with this primary or unique key, if any. A nil key does
    /// not hit the database.
    ///
    /// ```swift
    /// let player = try Player.fetchOne(db, key: ["email": "arthur@example.com"])
    /// ```
    public static func fetchOne(_ db: Database, key: [String: (any DatabaseValueConvertible)?]?) throws -> Self? {
        guard let key else { return nil }
        return try filter(key: key).fetchOne(db)
    }

    /// A cursor over the records with these primary keys.
    public static func fetchCursor(_ db: Database, keys: some Collection<some DatabaseValueConvertible>) throws -> RecordCursor<Self> {
        try filter(keys: keys).fetchCursor(db)
    }

    /// A cursor over the records with these primary or unique keys.
    public static func fetchCursor(_ db: Database, keys: [[String: (any DatabaseValueConvertible)?]]) throws -> RecordCursor<Self> {
        try filter(keys: keys).fetchCursor(db)
    }

    /// The records with these primary keys. No key does not hit the
    /// database.
    ///
    /// ```swift
    /// let players = try Player.fetchAll(db, keys: [1, 2, 3]) // SELECT * FROM player WHERE id IN (1, 2, 3)
    /// ```
    public static func fetchAll(_ db: Database, keys: some Collection<some DatabaseValueConvertible>) throws -> [Self] {
        guard !keys.isEmpty else { return [] }
        return try filter(keys: keys).fetchAll(db)
    }

    /// The records with these primary or unique keys. No key does not hit
    /// the database.
    public static func fetchAll(_ db: Database, keys: [[String: (any DatabaseValueConvertible)?]]) throws -> [Self] {
        guard !keys.isEmpty else { return [] }
        return try filter(keys: keys).fetchAll(db)
    }

    /// The record with this primary key, or a
    /// ``RecordError/recordNotFound(databaseTableName:key:)`` error.
    public static func find(_ db: Database, key: some DatabaseValueConvertible) throws -> Self {
        guard let record = try fetchOne(db, key: key) else {
            throw recordNotFound(db, key: key)
        }
        return record
    }

    /// The record with this primary or unique key, or an error.
    public static func find(_ db: Database, key: [String: (any DatabaseValueConvertible)?]) throws -> Self {
        guard let record = try fetchOne(db, key: key) else {
            throw recordNotFound(key: key)
        }
        return record
    }
}

extension FetchableRecord where Self: TableRecord & Hashable {
    /// The set of all records of the table.
    public static func fetchSet(_ db: Database) throws -> Set<Self> {
        try all().fetchSet(db)
    }

    /// The set of records with these primary keys. No key does not hit
    /// the database.
    public static func fetchSet(_ db: Database, keys: some Collection<some DatabaseValueConvertible>) throws -> Set<Self> {
        guard !keys.isEmpty else { return [] }
        return try filter(keys: keys).fetchSet(db)
    }

    /// The set of records with these primary or unique keys. No key does
    /// not hit the database.
    public static func fetchSet(_ db: Database, keys: [[String: (any DatabaseValueConvertible)?]]) throws -> Set<Self> {
        guard !keys.isEmpty else { return [] }
        return try filter(keys: keys).fetchSet(db)
    }
}

extension FetchableRecord where Self: TableRecord & Hashable & Identifiable, ID: DatabaseValueConvertible {
    /// The set of records with these ids.
    public static func fetchSet(_ db: Database, ids: some Collection<ID>) throws -> Set<Self> {
        try fetchSet(db, keys: ids)
    }
}

extension FetchableRecord where Self: TableRecord & Identifiable, ID: DatabaseValueConvertible {
    /// The record with this id, if any.
    public static func fetchOne(_ db: Database, id: ID) throws -> Self? {
        try fetchOne(db, key: id)
    }

    /// A cursor over the records with these ids.
    public static func fetchCursor(_ db: Database, ids: some Collection<ID>) throws -> RecordCursor<Self> {
        try fetchCursor(db, keys: ids)
    }

    /// The records with these ids.
    public static func fetchAll(_ db: Database, ids: some Collection<ID>) throws -> [Self] {
        try fetchAll(db, keys: ids)
    }

    /// The record with this id, or an error.
    public static func find(_ db: Database, id: ID) throws -> Self {
        try find(db, key: id)
    }
}

// MARK: - RecordCursor

/// A cursor of records decoded from the rows of a statement.
public final class RecordCursor<Record: FetchableRecord>: DatabaseCursor {
    public var statement: Statement { stepper.statement }
    private let stepper: StatementStepper
    private let row: Row

    init(statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws {
        row = try Row.cursorRow(statement: statement, adapter: adapter)
        stepper = try StatementStepper(statement: statement, arguments: arguments)
    }

    public func next() throws -> Record? {
        guard try stepper.step() else { return nil }
        return try Record(row: row)
    }
}
