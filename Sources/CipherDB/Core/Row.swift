import CSQLCipher
import Foundation

/// A database row.
///
/// ```swift
/// let row = try Row.fetchOne(db, sql: "SELECT id, name FROM player")!
/// let id: Int64 = row[0]
/// let name: String = row["name"]        // case-insensitive
/// let email: String? = row["email"]     // nil when NULL or missing
/// ```
///
/// Rows from a cursor (``Row/fetchCursor(_:sql:arguments:adapter:)``) are
/// reused from one step to the next, so that iterating allocates nothing:
/// call ``copy()`` to keep one. Rows from `fetchAll`, `fetchSet` and
/// `fetchOne` are copies already.
///
/// A cursor row reads its values straight from the statement, with
/// SQLite's conversions; a copied row decodes them from ``DatabaseValue``,
/// strictly (see ``StatementColumnConvertible``).
///
/// Subscripts stop the program when a value cannot be converted (as GRDB
/// does); ``decode(_:atIndex:)`` and ``decode(_:forColumn:)`` throw instead.
public final class Row {
    @usableFromInline enum Impl {
        /// A live row: the current row of a statement.
        case statement(Statement)
        /// A copied row.
        case values(ContiguousArray<DatabaseValue>)
        /// The columns of another row, chosen and named by an adapter.
        case adapted(base: Row, adapter: _LayoutedRowAdapter)
    }

    @usableFromInline let impl: Impl

    /// The names of the columns and their lookup.
    @usableFromInline let layout: RowLayout

    /// The number of columns.
    public let count: Int

    /// The raw statement of a live row that is not adapted, nil for
    /// others: the fast path of decoding.
    @usableFromInline let sqliteStatement: SQLiteStatement?

    /// The names looked up in a row that a cursor reuses, in the order of
    /// the lookups, with their indexes (see ``lookUpIndex(ofColumn:)``);
    /// nil for other rows. Behind a pointer, so that the lookups of every
    /// value pay no exclusivity check.
    @usableFromInline let nameLookups: UnsafeMutablePointer<NameLookups>?

    /// The rows of the to-many associations that the request prefetched
    /// with ``JoinableRequest/including(all:)``, by association key.
    ///
    /// ```swift
    /// let request = Author.including(all: Author.books)
    /// let authorRow = try Row.fetchOne(db, request)!
    /// let bookRows = authorRow.prefetchedRows["books"]! // [Row]
    /// ```
    public internal(set) var prefetchedRows = PrefetchedRowsView()

    /// The property of the `Decodable` record being decoded from this row
    /// that was decoded from the whole row (`book` in `struct BookInfo {
    /// var book: Book; var playerCount: Int }`): one such property is
    /// allowed, as in GRDB. Kept here rather than in the decoder so that
    /// decoding a record allocates nothing more: see `DatabaseRowDecoder`.
    var wholeRowPropertyName: String?

    /// While a nested record decodes from this row, the keys that lead to
    /// it from the record being decoded: the coding path of its decoders.
    /// Kept here for the same reason.
    var decodingPath: CodingKeyChain?

    /// The stepper of the cursor that returns this live row. The row keeps
    /// it, so that the statement is not reset while the row is in use,
    /// after the cursor is released: `Row.fetchCursor(db, sql: …).next()`.
    var cursorStepper: StatementStepper?

    /// The live row of a statement, reused by a cursor.
    init(statement: Statement) {
        impl = .statement(statement)
        layout = statement.layout
        count = statement.columnCount
        sqliteStatement = statement.sqliteStatement
        nameLookups = .allocate(capacity: 1)
        nameLookups!.initialize(to: NameLookups())
    }

    init(values: ContiguousArray<DatabaseValue>, layout: RowLayout) {
        impl = .values(values)
        self.layout = layout
        count = values.count
        sqliteStatement = nil
        nameLookups = nil
    }

    /// The columns of `base` that `adapter` chooses. `reused` for the row
    /// of a cursor, which remembers its lookups.
    init(base: Row, adapter: _LayoutedRowAdapter, reused: Bool = false) {
        impl = .adapted(base: base, adapter: adapter)
        layout = adapter.layout
        count = adapter.baseIndexes.count
        sqliteStatement = nil
        if reused {
            nameLookups = .allocate(capacity: 1)
            nameLookups!.initialize(to: NameLookups())
        } else {
            nameLookups = nil
        }
    }

    deinit {
        nameLookups?.deinitialize(count: 1)
        nameLookups?.deallocate()
    }

    /// Creates an empty row.
    public convenience init() {
        self.init(values: [], layout: RowLayout(columnNames: []))
    }

    /// Creates a row from a dictionary. The column order is the one of
    /// the dictionary.
    public convenience init(_ dictionary: [String: (any DatabaseValueConvertible)?]) {
        self.init(values: ContiguousArray(dictionary.values.map { $0?.databaseValue ?? .null }),
                  layout: RowLayout(columnNames: Array(dictionary.keys)))
    }

    /// Creates a row from a dictionary of database values (`NSNull` for
    /// NULL), or nil if a key is not a string or a value can not be stored.
    public convenience init?(_ dictionary: [AnyHashable: Any]) {
        var columns: [String: (any DatabaseValueConvertible)?] = [:]
        for (key, value) in dictionary {
            guard let column = key as? String, let dbValue = DatabaseValue(anyValue: value) else { return nil }
            columns[column] = dbValue
        }
        self.init(columns)
    }

    /// A row that no longer depends on a statement (the row itself when it
    /// does not).
    public func copy() -> Row {
        switch impl {
        case .values:
            return self
        case .statement:
            return Row(values: databaseValues, layout: layout)
        case let .adapted(base, adapter):
            let copy = Row(base: base.copy(), adapter: adapter)
            copy.prefetchedRows = prefetchedRows
            return copy
        }
    }

    // MARK: - Columns

    /// The names of the columns, left to right.
    public var columnNames: [String] { layout.columnNames }

    /// The values, left to right.
    public var databaseValues: ContiguousArray<DatabaseValue> {
        switch impl {
        case .values(let values):
            return values
        case .statement, .adapted:
            return ContiguousArray((0..<count).map { databaseValue(atUncheckedIndex: $0) })
        }
    }

    /// Whether the row has a column with that name (case-insensitive).
    public func hasColumn(_ columnName: String) -> Bool {
        layout.index(ofColumn: columnName) != nil
    }

    /// The index of the leftmost column with that name (case-insensitive).
    public func index(forColumn name: String) -> Int? {
        lookUpIndex(ofColumn: name)
    }

    /// The index of a column, resolved once per statement for cursor rows.
    ///
    /// A cursor reuses its row at every step, and code reads the same
    /// columns in the same order at each step: the next lookup is almost
    /// always the entry after the previous one, and a string comparison
    /// (two words for short names) replaces hashing the name twice.
    @inlinable @inline(__always)
    func lookUpIndex(ofColumn name: String) -> Int? {
        guard let nameLookups else { return layout.index(ofColumn: name) }
        return nameLookups.pointee.index(ofColumn: name, in: layout)
    }

    @usableFromInline
    func databaseValue(atUncheckedIndex index: Int) -> DatabaseValue {
        switch impl {
        case .statement(let statement):
            return DatabaseValue(sqliteStatement: statement.sqliteStatement, index: CInt(index))
        case .values(let values):
            return values[index]
        case let .adapted(base, adapter):
            return base.databaseValue(atUncheckedIndex: adapter.baseIndexes[index])
        }
    }

    /// Whether the value at `index` is NULL, without reading the value
    /// (a text column would be copied into a string for nothing).
    func isNull(atUncheckedIndex index: Int) -> Bool {
        switch impl {
        case .statement(let statement):
            return sqlite3_column_type(statement.sqliteStatement, CInt(index)) == SQLITE_NULL
        case .values(let values):
            return values[index].isNull
        case let .adapted(base, adapter):
            return base.isNull(atUncheckedIndex: adapter.baseIndexes[index])
        }
    }

    /// Whether the value at `index` is NULL.
    public func hasNull(atIndex index: Int) -> Bool {
        checkIndex(index)
        return isNull(atUncheckedIndex: index)
    }

    /// Whether a column of the row, or of one of its scopes, is not NULL:
    /// false for the columns of a missing associated record, read from a
    /// `LEFT JOIN`.
    public var containsNonNullValue: Bool {
        (0..<count).contains { !isNull(atUncheckedIndex: $0) }
            || scopes.contains { $0.row.containsNonNullValue }
    }

    @usableFromInline
    func context(_ index: Int) -> RowDecodingContext {
        switch impl {
        case .statement(let statement):
            return RowDecodingContext(column: layout.columnNames[index], sql: statement.sql)
        case .values:
            return RowDecodingContext(column: layout.columnNames[index])
        case let .adapted(base, adapter):
            var context = base.context(adapter.baseIndexes[index])
            context.column = layout.columnNames[index]
            return context
        }
    }

    @inlinable @inline(__always)
    func checkIndex(_ index: Int) {
        precondition(index >= 0 && index < count, "row index out of range")
    }

    // MARK: - Throwing decoding

    /// Decodes the value at `index`, or throws ``RowDecodingError``.
    public func decode<Value: DatabaseValueConvertible>(_ type: Value.Type = Value.self, atIndex index: Int) throws -> Value {
        checkIndex(index)
        return try Value.decode(databaseValue(atUncheckedIndex: index), context: context(index))
    }

    /// Decodes the value at `index` through the fast path, or throws.
    @inlinable @inline(__always)
    public func decode<Value: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: Value.Type = Value.self, atIndex index: Int) throws -> Value
    {
        checkIndex(index)
        if let sqliteStatement {
            return try Value.decode(sqliteStatement: sqliteStatement, index: CInt(index), context: context(index))
        }
        return try fastDecode(Value.self, atUncheckedIndex: index)
    }

    /// The fast path of a copied or adapted row: copied rows decode
    /// strictly, adapted rows decode as their base row does.
    @inlinable
    func fastDecode<Value: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: Value.Type, atUncheckedIndex index: Int) throws -> Value
    {
        switch impl {
        case .statement(let statement):
            return try Value.decode(sqliteStatement: statement.sqliteStatement, index: CInt(index), context: context(index))
        case .values(let values):
            return try Value.decode(values[index], context: context(index))
        case let .adapted(base, adapter):
            return try base.decode(Value.self, atIndex: adapter.baseIndexes[index])
        }
    }

    /// Decodes the value at `index` through the fast path, or nil for NULL.
    @inlinable @inline(__always)
    func decodeIfPresent<Value: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: Value.Type, atIndex index: Int) throws -> Value?
    {
        try decode(Value?.self, atIndex: index)
    }

    /// Decodes the value of the named column, or throws
    /// ``RowDecodingError`` (also when the column is missing and `Value` is
    /// not optional).
    public func decode<Value: DatabaseValueConvertible>(_ type: Value.Type = Value.self, forColumn name: String) throws -> Value {
        guard let index = lookUpIndex(ofColumn: name) else { return try missingColumn(name) }
        return try decode(Value.self, atIndex: index)
    }

    /// Decodes the value of the named column through the fast path.
    @inlinable @inline(__always)
    public func decode<Value: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: Value.Type = Value.self, forColumn name: String) throws -> Value
    {
        guard let index = lookUpIndex(ofColumn: name) else { return try missingColumn(name) }
        return try decode(Value.self, atIndex: index)
    }

    /// Decodes the value of a column: `try row.decode(forColumn: Column("name"))`.
    public func decode<Value: DatabaseValueConvertible>(
        _ type: Value.Type = Value.self, forColumn column: some ColumnExpression) throws -> Value
    {
        try decode(Value.self, forColumn: column.name)
    }

    /// Decodes the value of a column through the fast path.
    @inlinable @inline(__always)
    public func decode<Value: DatabaseValueConvertible & StatementColumnConvertible>(
        _ type: Value.Type = Value.self, forColumn column: some ColumnExpression) throws -> Value
    {
        try decode(Value.self, forColumn: column.name)
    }

    /// The value of a missing column: nil for an optional, else an error.
    @usableFromInline
    func missingColumn<Value: DatabaseValueConvertible>(_ name: String) throws -> Value {
        if let value = Value.fromMissingColumn() { return value }
        throw RowDecodingError.columnNotFound(name, RowDecodingContext(column: name))
    }

    // MARK: - Subscripts

    /// The value at `index`, if it is convertible to a known type.
    public subscript(_ index: Int) -> (any DatabaseValueConvertible)? {
        checkIndex(index)
        return databaseValue(atUncheckedIndex: index).storageValue
    }

    /// The value at `index`. Stops the program if the conversion fails.
    @inline(__always)
    public subscript<Value: DatabaseValueConvertible>(_ index: Int) -> Value {
        Row.orDie { try decode(Value.self, atIndex: index) }
    }

    /// The value at `index`, through the fast path (inlinable, so that it
    /// is specialized for `Value` in the caller's module: no generic
    /// metadata lookup per value).
    @inlinable @inline(__always)
    public subscript<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ index: Int) -> Value {
        Row.orDie { try decode(Value.self, atIndex: index) }
    }

    /// The value of the named column, if any.
    public subscript(_ columnName: String) -> (any DatabaseValueConvertible)? {
        lookUpIndex(ofColumn: columnName).flatMap { databaseValue(atUncheckedIndex: $0).storageValue }
    }

    /// The value of the named column. Stops the program if the column is
    /// missing (unless `Value` is optional) or the conversion fails.
    @inline(__always)
    public subscript<Value: DatabaseValueConvertible>(_ columnName: String) -> Value {
        Row.orDie { try decode(Value.self, forColumn: columnName) }
    }

    /// The value of the named column, through the fast path (inlinable,
    /// as the subscript by index).
    @inlinable @inline(__always)
    public subscript<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ columnName: String) -> Value {
        Row.orDie { try decode(Value.self, forColumn: columnName) }
    }

    /// The value of a column, if any: `row[Column("name")]`.
    public subscript(_ column: some ColumnExpression) -> (any DatabaseValueConvertible)? {
        self[column.name]
    }

    /// The value of a column. Stops the program if the column is missing
    /// (unless `Value` is optional) or the conversion fails.
    @inline(__always)
    public subscript<Value: DatabaseValueConvertible>(_ column: some ColumnExpression) -> Value {
        Row.orDie { try decode(Value.self, forColumn: column.name) }
    }

    /// The value of a column, through the fast path.
    @inlinable @inline(__always)
    public subscript<Value: DatabaseValueConvertible & StatementColumnConvertible>(_ column: some ColumnExpression) -> Value {
        Row.orDie { try decode(Value.self, forColumn: column.name) }
    }

    @inlinable @inline(__always)
    static func orDie<T>(_ body: () throws -> T) -> T {
        do {
            return try body()
        } catch {
            fatalError("\(error)")
        }
    }
}

/// The column names looked up in a live row, in the order of the lookups,
/// and the entry the next lookup most likely asks for.
@usableFromInline
struct NameLookups {
    @usableFromInline var names: ContiguousArray<String> = []
    @usableFromInline var indexes: ContiguousArray<Int?> = []
    @usableFromInline var next = 0
    /// Enough for the columns of any reasonable record.
    private static let maximumCount = 64

    init() {}

    /// The expected lookup is inlined in the caller; the others are not.
    @inlinable @inline(__always)
    mutating func index(ofColumn name: String, in layout: RowLayout) -> Int? {
        let entry = next
        guard entry < names.count, names[entry] == name else {
            return unexpectedIndex(ofColumn: name, in: layout)
        }
        next = entry + 1 == names.count ? 0 : entry + 1
        return indexes[entry]
    }

    /// A lookup out of the order of the previous row, or a new name.
    @usableFromInline
    mutating func unexpectedIndex(ofColumn name: String, in layout: RowLayout) -> Int? {
        guard let found = names.firstIndex(of: name) else {
            let index = layout.index(ofColumn: name)
            if names.count < Self.maximumCount {
                names.append(name)
                indexes.append(index)
            }
            next = 0
            return index
        }
        next = found + 1 == names.count ? 0 : found + 1
        return indexes[found]
    }
}

extension DatabaseValue {
    /// The Swift value of the storage class, or nil for NULL.
    var storageValue: (any DatabaseValueConvertible)? { storage.value }
}
