import CSQLCipher

// MARK: - Bool

/// Stored as the integer 0 or 1.
extension Bool: DatabaseValueConvertible, StatementColumnConvertible {
    @inlinable @inline(__always)
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let value = Self.fromStatement(sqliteStatement, atUncheckedIndex: index) else { return nil }
        self = value
    }

    @inlinable @inline(__always)
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Bool? {
        let value = columnValue(sqliteStatement, index)
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER: return sqlite3_value_int64(value) != 0
        case SQLITE_FLOAT: return sqlite3_value_double(value) != 0
        default: return nil
        }
    }

    public var databaseValue: DatabaseValue {
        DatabaseValue(storage: .int64(self ? 1 : 0))
    }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Bool? {
        switch dbValue.storage {
        case .int64(let int64): return int64 != 0
        case .double(let double): return double != 0
        default: return nil
        }
    }
}

// MARK: - Integers

/// Integers are stored as 64-bit integers. Decoding fails for values out of
/// range, and for doubles that are not whole numbers.
@usableFromInline
protocol DatabaseInteger: FixedWidthInteger, DatabaseValueConvertible, StatementColumnConvertible {}

extension DatabaseInteger {
    // Text and blobs are not numbers: SQLite would read "abc" as 0.
    // Inlinable: the row subscripts read integers in the caller's module.
    @inlinable @inline(__always)
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let value = Self.fromStatement(sqliteStatement, atUncheckedIndex: index) else { return nil }
        self = value
    }

    /// One column access: its type, then its value (NULL is nil).
    @inlinable @inline(__always)
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Self? {
        let value = columnValue(sqliteStatement, index)
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER: return Self(exactly: sqlite3_value_int64(value))
        case SQLITE_FLOAT: return Self(exactly: sqlite3_value_double(value))
        default: return nil
        }
    }

    public var databaseValue: DatabaseValue {
        // UInt64 values above Int64.max do not fit: store them as doubles,
        // as SQLite itself does for integer literals that overflow.
        if let int64 = Int64(exactly: self) {
            return DatabaseValue(storage: .int64(int64))
        }
        return DatabaseValue(storage: .double(Double(self)))
    }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        switch dbValue.storage {
        case .int64(let int64): return Self(exactly: int64)
        case .double(let double): return Self(exactly: double)
        default: return nil
        }
    }
}

extension Int: DatabaseInteger {}
extension Int8: DatabaseInteger {}
extension Int16: DatabaseInteger {}
extension Int32: DatabaseInteger {}
extension Int64: DatabaseInteger {}
extension UInt: DatabaseInteger {}
extension UInt8: DatabaseInteger {}
extension UInt16: DatabaseInteger {}
extension UInt32: DatabaseInteger {}
extension UInt64: DatabaseInteger {}

// MARK: - Floating point

extension Double: DatabaseValueConvertible, StatementColumnConvertible {
    @inlinable @inline(__always)
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let value = Self.fromStatement(sqliteStatement, atUncheckedIndex: index) else { return nil }
        self = value
    }

    @inlinable @inline(__always)
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Double? {
        let value = columnValue(sqliteStatement, index)
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER, SQLITE_FLOAT: return sqlite3_value_double(value)
        default: return nil
        }
    }

    public var databaseValue: DatabaseValue {
        DatabaseValue(storage: .double(self))
    }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Double? {
        switch dbValue.storage {
        case .int64(let int64): return Double(int64)
        case .double(let double): return double
        default: return nil
        }
    }
}

extension Float: DatabaseValueConvertible, StatementColumnConvertible {
    @inline(__always)
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let double = Double(sqliteStatement: sqliteStatement, index: index) else { return nil }
        self = Float(double)
    }

    public var databaseValue: DatabaseValue {
        DatabaseValue(storage: .double(Double(self)))
    }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Float? {
        Double.fromDatabaseValue(dbValue).map { Float($0) }
    }
}

// MARK: - String

/// Stored as TEXT. Blobs and numbers are not converted to strings.
extension String: DatabaseValueConvertible, StatementColumnConvertible {
    /// The column as text, whatever its type (SQLite converts numbers), as
    /// in GRDB. Fetching goes through ``fromStatement(_:atUncheckedIndex:)``.
    @inline(__always)
    public init(sqliteStatement: SQLiteStatement, index: CInt) {
        self = String(cString: sqlite3_column_text(sqliteStatement, index)!)
    }

    /// The text of a TEXT column, decoded with its length (no `strlen`);
    /// nil for other types, as ``fromDatabaseValue(_:)``.
    @inlinable @inline(__always)
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> String? {
        let value = columnValue(sqliteStatement, index)
        guard sqlite3_value_type(value) == SQLITE_TEXT, let text = sqlite3_value_text(value) else { return nil }
        return String(decoding: UnsafeBufferPointer(start: text, count: Int(sqlite3_value_bytes(value))), as: UTF8.self)
    }

    public var databaseValue: DatabaseValue {
        DatabaseValue(storage: .string(self))
    }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> String? {
        if case .string(let string) = dbValue.storage { return string }
        return nil
    }
}
