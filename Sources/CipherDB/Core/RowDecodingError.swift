/// Where a value was decoded from: enough to find the bug, never the
/// statement arguments.
@usableFromInline
struct RowDecodingContext: CustomStringConvertible {
    var column: String?
    var sql: String?

    @usableFromInline
    var description: String {
        var parts: [String] = []
        if let column { parts.append("column: \(String(reflecting: column))") }
        if let sql { parts.append("sql: `\(sql)`") }
        return parts.joined(separator: ", ")
    }
}

/// An error thrown when a database value cannot be converted to the
/// requested type, such as NULL fetched as a non-optional `String`.
///
/// ```swift
/// do {
///     let names = try String.fetchAll(db, sql: "SELECT name FROM player")
/// } catch let error as RowDecodingError {
///     print(error) // could not decode String from database value NULL - column: "name", ...
/// }
/// ```
///
/// The description shows the storage class of the value, never the value
/// itself, which may be a secret.
public struct RowDecodingError: Error, Sendable, CustomStringConvertible {
    public let description: String

    @usableFromInline
    static func valueMismatch(_ type: Any.Type, _ dbValue: DatabaseValue, _ context: RowDecodingContext) -> RowDecodingError {
        let shown = dbValue.isNull ? "NULL" : "of type \(dbValue.storageClassName)"
        return RowDecodingError(description: "could not decode \(type) from database value \(shown) - \(context)")
    }

    static func columnNotFound(_ column: String, _ context: RowDecodingContext) -> RowDecodingError {
        RowDecodingError(description: "column not found: \(String(reflecting: column)) - \(context)")
    }
}

extension DatabaseValue {
    var storageClassName: String {
        switch storage {
        case .null: return "NULL"
        case .int64: return "INTEGER"
        case .double: return "REAL"
        case .string: return "TEXT"
        case .blob: return "BLOB"
        }
    }
}
