import CSQLCipher
import Foundation

// MARK: - Bool

/// Stored as the integer 0 or 1.
///
/// Read from a statement, a value is what `sqlite3_column_int64` returns,
/// compared to 0, as GRDB does: SQLite converts text and doubles. Decoded
/// from a ``DatabaseValue``, only integers and doubles are booleans.
extension Bool: DatabaseValueConvertible, StatementColumnConvertible {
    @inlinable @inline(__always)
    public init(sqliteStatement: SQLiteStatement, index: CInt) {
        self = sqlite3_column_int64(sqliteStatement, index) != 0
    }

    @inlinable @inline(__always)
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Bool? {
        Int64.fromStatement(sqliteStatement, atUncheckedIndex: index).map { $0 != 0 }
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

/// Integers are stored as 64-bit integers.
///
/// Read from a statement, a value is what `sqlite3_column_int64` returns,
/// as GRDB does: SQLite converts text (`'20 small cigars'` is 20) and
/// truncates doubles. Decoded from a ``DatabaseValue`` (copied rows), only
/// integers and doubles (truncated) are numbers. Either way, decoding
/// fails for a value out of the range of the type.
@usableFromInline
protocol DatabaseInteger: FixedWidthInteger, DatabaseValueConvertible, StatementColumnConvertible {}

extension DatabaseInteger {
    // Inlinable: the row subscripts read integers in the caller's module.
    @inlinable @inline(__always)
    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let value = Self(exactly: sqlite3_column_int64(sqliteStatement, index)) else { return nil }
        self = value
    }

    /// What `sqlite3_column_int64` returns: SQLite returns 0 for NULL, and
    /// only then is the type asked for, so that a non-zero value costs the
    /// one call that raw C code makes.
    @inlinable @inline(__always)
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Self? {
        let int64 = sqlite3_column_int64(sqliteStatement, index)
        if int64 == 0 && sqlite3_column_type(sqliteStatement, index) == SQLITE_NULL { return nil }
        return Self(exactly: int64)
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
        case .int64(let int64):
            return Self(exactly: int64)
        case .double(let double):
            // Truncated, as SQLite does, if it fits in an Int64.
            guard double >= Double(Int64.min), double < Double(Int64.max) else { return nil }
            return Self(exactly: Int64(double))
        default:
            return nil
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

/// Read from a statement, a value is what `sqlite3_column_double` returns,
/// as GRDB does (SQLite converts text); decoded from a ``DatabaseValue``,
/// only integers and doubles are numbers.
extension Double: DatabaseValueConvertible, StatementColumnConvertible {
    @inlinable @inline(__always)
    public init(sqliteStatement: SQLiteStatement, index: CInt) {
        self = sqlite3_column_double(sqliteStatement, index)
    }

    /// What `sqlite3_column_double` returns; the type is asked for only
    /// for 0, as for integers.
    @inlinable @inline(__always)
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Double? {
        let double = sqlite3_column_double(sqliteStatement, index)
        if double == 0 && sqlite3_column_type(sqliteStatement, index) == SQLITE_NULL { return nil }
        return double
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
    public init(sqliteStatement: SQLiteStatement, index: CInt) {
        self = Float(sqlite3_column_double(sqliteStatement, index))
    }

    @inline(__always)
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Float? {
        Double.fromStatement(sqliteStatement, atUncheckedIndex: index).map { Float($0) }
    }

    public var databaseValue: DatabaseValue {
        DatabaseValue(storage: .double(Double(self)))
    }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Float? {
        Double.fromDatabaseValue(dbValue).map { Float($0) }
    }
}

// MARK: - String

/// Stored as TEXT.
///
/// Read from a statement, a value is what `sqlite3_column_text` returns, as
/// GRDB does: SQLite converts numbers and blobs. Decoded from a
/// ``DatabaseValue``, text and blobs (their UTF-8 bytes) are strings.
extension String: DatabaseValueConvertible, StatementColumnConvertible {
    @inline(__always)
    public init(sqliteStatement: SQLiteStatement, index: CInt) {
        self = String(cString: sqlite3_column_text(sqliteStatement, index)!)
    }

    /// What `sqlite3_column_text` returns, decoded with its length (no
    /// `strlen`), from one column access. SQLite returns no text for NULL,
    /// and only then is the type asked for.
    @inlinable @inline(__always)
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> String? {
        let value = columnValue(sqliteStatement, index)
        guard let text = sqlite3_value_text(value) else {
            // An empty blob may have no text either.
            return sqlite3_value_type(value) == SQLITE_NULL ? nil : ""
        }
        let count = Int(sqlite3_value_bytes(value))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    public var databaseValue: DatabaseValue {
        DatabaseValue(storage: .string(self))
    }

    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> String? {
        switch dbValue.storage {
        case .string(let string): return string
        case .blob(let data): return String(data: data, encoding: .utf8)
        default: return nil
        }
    }
}
