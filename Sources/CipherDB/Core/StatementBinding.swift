/// A type that binds itself to a statement parameter. Every
/// ``DatabaseValueConvertible`` type does, through its database value.
///
/// ```swift
/// struct Wrapper<RawValue>: RawRepresentable { var rawValue: RawValue }
/// extension Wrapper: StatementBinding where RawValue: StatementBinding { }
/// ```
///
/// See <https://www.sqlite.org/c3ref/bind_blob.html>.
public protocol StatementBinding {
    /// Binds the value to parameter `index` (1-based) of `sqliteStatement`,
    /// and returns the code of the `sqlite3_bind_*` function.
    func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt
}
