import CSQLCipher

// MARK: - StatementColumnConvertible

/// An optional reads NULL as nil: `Int?.fetchAll(db, sql: …)` returns
/// `[1, nil, 3]`, and `row[0] as Int?` is nil for NULL. A value that does
/// not convert is still an error.
extension Optional: StatementColumnConvertible where Wrapped: StatementColumnConvertible {
    @inlinable @inline(__always)
    public static func fromStatement(_ sqliteStatement: SQLiteStatement, atUncheckedIndex index: CInt) -> Wrapped?? {
        if let value = Wrapped.fromStatement(sqliteStatement, atUncheckedIndex: index) {
            return .some(value)
        }
        if sqlite3_column_type(sqliteStatement, index) == SQLITE_NULL {
            return .some(nil)
        }
        return nil
    }

    public init?(sqliteStatement: SQLiteStatement, index: CInt) {
        guard let value = Wrapped(sqliteStatement: sqliteStatement, index: index) else { return nil }
        self = .some(value)
    }
}
