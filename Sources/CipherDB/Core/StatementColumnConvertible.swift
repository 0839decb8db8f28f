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

    /// Reads column `index` of the current row, which may be NULL: nil
    /// for NULL or a value that does not convert.
    ///
    /// The default implementation checks for NULL, then calls
    /// ``init(sqliteStatement:index:)``. The standard types read the column
    /// once instead.
    static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Self?
}

extension StatementColumnConvertible {
    @inlinable @inline(__always)
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Self? {
        if sqlite3_column_type(sqliteStatement, index) == SQLITE_NULL { return nil }
        return Self(sqliteStatement: sqliteStatement, index: index)
    }
}

/// The value of column `index` of the current row, read once, for the
/// `fromStatement` of the standard types.
///
/// SQLite calls the returned value unprotected: reading it with
/// `sqlite3_value_*` is safe only where no other thread uses the
/// connection, which the serialized access of every ``Database`` ensures.
/// See <https://www.sqlite.org/c3ref/column_blob.html>.
@inlinable @inline(__always)
func columnValue(_ sqliteStatement: SQLiteStatement, _ index: CInt) -> OpaquePointer {
    sqlite3_column_value(sqliteStatement, index)
}

extension DatabaseValueConvertible where Self: StatementColumnConvertible {
    /// Reads column `index`, handling NULL and conversion failures.
    @inlinable @inline(__always)
    static func decode(sqliteStatement: SQLiteStatement, index: CInt,
                       context: @autoclosure () -> RowDecodingContext) throws -> Self
    {
        if let value = fromStatement(sqliteStatement, atUncheckedIndex: index) {
            return value
        }
        return try decodeFailure(sqliteStatement: sqliteStatement, index: index, context: context())
    }

    /// The value of a column that `fromStatement` did not convert: NULL
    /// for a type that accepts it, or else an error.
    @usableFromInline
    static func decodeFailure(sqliteStatement: SQLiteStatement, index: CInt, context: RowDecodingContext) throws -> Self {
        let dbValue = DatabaseValue(sqliteStatement: sqliteStatement, index: index)
        if dbValue.isNull, let value = fromDatabaseValue(.null) { return value }
        throw RowDecodingError.valueMismatch(Self.self, dbValue, context)
    }

    /// Reads column `index` as an optional.
    @inlinable @inline(__always)
    static func decodeIfPresent(sqliteStatement: SQLiteStatement, index: CInt,
                                context: @autoclosure () -> RowDecodingContext) throws -> Self?
    {
        if let value = fromStatement(sqliteStatement, atUncheckedIndex: index) {
            return value
        }
        if sqlite3_column_type(sqliteStatement, index) == SQLITE_NULL {
            return nil
        }
        throw RowDecodingError.valueMismatch(
            Self.self, DatabaseValue(sqliteStatement: sqliteStatement, index: index), context())
    }
}
