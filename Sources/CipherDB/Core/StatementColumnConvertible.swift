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
/// The standard types read the column with the `sqlite3_column_*`
/// function of their storage class, and SQLite converts the other storage
/// classes, as in GRDB: `Int` reads 20 from `'20 small cigars'`. Only
/// NULL, and values out of range of the type, fail. Rows copied out of
/// their statement decode through ``DatabaseValue``, strictly.
///
/// See <https://www.sqlite.org/c3ref/column_blob.html>.
public protocol StatementColumnConvertible {
    /// Reads column `index` of the current row, which may be NULL: nil
    /// for NULL or a value that does not convert.
    ///
    /// The default implementation checks for NULL, then calls
    /// ``init(sqliteStatement:index:)``; `Optional` returns `.some(nil)`
    /// for NULL.
    static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Self?

    /// Reads a non-NULL value from column `index` of the current row, or
    /// returns nil if the conversion is not possible.
    init?(sqliteStatement: SQLiteStatement, index: CInt)
}

extension StatementColumnConvertible {
    @inlinable @inline(__always)
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Self? {
        if sqlite3_column_type(sqliteStatement, index) == SQLITE_NULL { return nil }
        return Self(sqliteStatement: sqliteStatement, index: index)
    }
}

/// The value of column `index` of the current row, for the standard types,
/// that read it once: each `sqlite3_column_*` call locks the connection and
/// looks the column up again, `sqlite3_value_*` calls do not.
///
/// SQLite calls the returned value unprotected: reading it with
/// `sqlite3_value_*` is safe only where no other thread uses the
/// connection, which the serialized access of every ``Database`` ensures.
/// See <https://www.sqlite.org/c3ref/column_blob.html>.
@inlinable @inline(__always)
func columnValue(_ sqliteStatement: SQLiteStatement, _ index: CInt) -> OpaquePointer {
    sqlite3_column_value(sqliteStatement, index)
}

// MARK: - Decoding with errors

extension DatabaseValueConvertible where Self: StatementColumnConvertible {
    /// Reads column `index`, or throws for NULL (unless `Self` is
    /// optional) and for values that do not convert.
    @inlinable @inline(__always)
    static func decode(sqliteStatement: SQLiteStatement, index: CInt,
                       context: @autoclosure () -> RowDecodingContext) throws -> Self
    {
        if let value = fromStatement(sqliteStatement, atUncheckedIndex: index) {
            return value
        }
        try valueMismatch(sqliteStatement: sqliteStatement, index: index, context: context())
    }

    /// Out of line: the error is rare, and its description reads the value.
    @usableFromInline
    static func valueMismatch(sqliteStatement: SQLiteStatement, index: CInt, context: RowDecodingContext) throws -> Never {
        throw RowDecodingError.valueMismatch(Self.self, DatabaseValue(sqliteStatement: sqliteStatement, index: index), context)
    }

    /// Reads column `index` as an optional: nil for NULL.
    @inlinable @inline(__always)
    static func decodeIfPresent(sqliteStatement: SQLiteStatement, index: CInt,
                                context: @autoclosure () -> RowDecodingContext) throws -> Self?
    {
        try Optional<Self>.decode(sqliteStatement: sqliteStatement, index: index, context: context())
    }
}
