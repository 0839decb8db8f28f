import CSQLCipher

/// The raw `sqlite3_stmt` pointer of a statement.
public typealias SQLiteStatement = OpaquePointer

/// The raw `sqlite3` pointer of a connection.
public typealias SQLiteConnection = OpaquePointer

/// A type that reads itself straight from a statement column, with no
/// intermediate ``DatabaseValue``: the fast path of fetching.
///
/// ```swift
/// // Uses sqlite3_column_int64 for each row:
/// let scores = try Int.fetchAll(db, sql: "SELECT score FROM player")
/// ```
///
/// See <https://www.sqlite.org/c3ref/column_blob.html>.
public protocol StatementColumnConvertible {
    /// Reads a non-NULL value from column `index` of the current row, or
    /// returns nil if the conversion is not possible.
    init?(sqliteStatement: SQLiteStatement, index: CInt)
}

extension DatabaseValueConvertible where Self: StatementColumnConvertible {
    /// Reads column `index`, handling NULL and conversion failures.
    @inlinable @inline(__always)
    static func decode(sqliteStatement: SQLiteStatement, index: CInt,
                       context: @autoclosure () -> RowDecodingContext) throws -> Self
    {
        if sqlite3_column_type(sqliteStatement, index) == SQLITE_NULL {
            if let value = fromDatabaseValue(.null) { return value }
        } else if let value = Self(sqliteStatement: sqliteStatement, index: index) {
            return value
        }
        throw RowDecodingError.valueMismatch(
            Self.self, DatabaseValue(sqliteStatement: sqliteStatement, index: index), context())
    }

    /// Reads column `index` as an optional.
    @inline(__always)
    static func decodeIfPresent(sqliteStatement: SQLiteStatement, index: CInt,
                                context: @autoclosure () -> RowDecodingContext) throws -> Self?
    {
        if sqlite3_column_type(sqliteStatement, index) == SQLITE_NULL {
            return nil
        }
        if let value = Self(sqliteStatement: sqliteStatement, index: index) {
            return value
        }
        throw RowDecodingError.valueMismatch(
            Self.self, DatabaseValue(sqliteStatement: sqliteStatement, index: index), context())
    }
}
