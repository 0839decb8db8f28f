import Foundation

/// A type that can be stored in and read from the database.
///
/// ```swift
/// enum Grade: String, DatabaseValueConvertible { case a, b, c }
/// try db.execute(sql: "INSERT INTO exam (grade) VALUES (?)", arguments: [Grade.a])
/// let grades = try Grade.fetchAll(db, sql: "SELECT grade FROM exam")
/// ```
///
/// See <https://www.sqlite.org/datatype3.html>.
public protocol DatabaseValueConvertible: SQLExpressible, StatementBinding {
    /// The value stored in the database.
    var databaseValue: DatabaseValue { get }

    /// Decodes a value from the database, or returns nil if the conversion
    /// is not possible.
    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self?

    /// The value to use when a row has no such column. Only `Optional`
    /// returns a value (nil).
    static func fromMissingColumn() -> Self?

    /// The JSON decoder of a `Decodable` type stored as JSON (see
    /// `DatabaseValueConvertible+Decodable.swift`).
    static func databaseJSONDecoder() -> JSONDecoder

    /// The JSON encoder of an `Encodable` type stored as JSON (see
    /// `DatabaseValueConvertible+Encodable.swift`).
    static func databaseJSONEncoder() -> JSONEncoder
}

extension DatabaseValueConvertible {
    public static func fromMissingColumn() -> Self? { nil }

    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        databaseValue.bind(to: sqliteStatement, at: index)
    }

    public static func databaseJSONDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dataDecodingStrategy = .base64
        decoder.dateDecodingStrategy = .millisecondsSince1970
        decoder.nonConformingFloatDecodingStrategy = .throw
        return decoder
    }

    public static func databaseJSONEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dataEncodingStrategy = .base64
        encoder.dateEncodingStrategy = .millisecondsSince1970
        encoder.nonConformingFloatEncodingStrategy = .throw
        // Stable JSON, so that equal values are equal in the database.
        encoder.outputFormatting = .sortedKeys
        return encoder
    }
}

// MARK: - Decoding with errors

extension DatabaseValueConvertible {
    /// Decodes a database value, or throws an error that names the column
    /// and the statement (without its arguments).
    @usableFromInline
    static func decode(_ dbValue: DatabaseValue, context: @autoclosure () -> RowDecodingContext) throws -> Self {
        if let value = fromDatabaseValue(dbValue) {
            return value
        }
        throw RowDecodingError.valueMismatch(Self.self, dbValue, context())
    }
}

// MARK: - Optional

extension Optional: SQLExpressible where Wrapped: SQLExpressible {
    /// The wrapped expression, or NULL.
    public var sqlExpression: SQLExpression {
        self?.sqlExpression ?? .value(nil)
    }
}

extension Optional: StatementBinding where Wrapped: StatementBinding {
    /// The wrapped value, or NULL.
    public func bind(to sqliteStatement: SQLiteStatement, at index: CInt) -> CInt {
        self?.bind(to: sqliteStatement, at: index) ?? DatabaseValue.null.bind(to: sqliteStatement, at: index)
    }
}

extension Optional: DatabaseValueConvertible where Wrapped: DatabaseValueConvertible {
    public var databaseValue: DatabaseValue {
        self?.databaseValue ?? .null
    }

    /// The wrapped type decodes first, so that a type that decodes NULL
    /// keeps it: `DatabaseValue?` decodes NULL as `.null`, not nil.
    public static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Wrapped?? {
        if let value = Wrapped.fromDatabaseValue(dbValue) { return .some(value) }
        if dbValue.isNull { return .some(nil) }
        return nil
    }

    public static func fromMissingColumn() -> Wrapped?? {
        .some(nil)
    }
}
