import CPostgres

/// A statement that PostgreSQL refused: its SQLSTATE and message.
///
/// ```swift
/// do { try await connection.query("SELECT * FROM missing", logger: logger) }
/// catch let error as PostgresServerError where error.sqlState == "42P01" { … }
/// ```
package struct PostgresServerError: Error, CustomStringConvertible, Sendable {
    /// The five-character SQLSTATE, "42P01" for an undefined table.
    package var sqlState: String
    package var message: String
    package var detail: String?

    init(_ result: OpaquePointer) {
        sqlState = Self.field("C", of: result) ?? "XX000"
        message = Self.field("M", of: result) ?? String(cString: PQresultErrorMessage(result))
        detail = Self.field("D", of: result)
    }

    /// A field of an error's or a notice's result, by libpq's one-letter
    /// code (`PG_DIAG_*`, which Swift does not import): "C" the SQLSTATE,
    /// "M" the message, "D" the detail, "V" the severity in English.
    static func field(_ code: Character, of result: OpaquePointer) -> String? {
        PQresultErrorField(result, Int32(code.asciiValue!)).map { String(cString: $0) }
    }

    package var description: String {
        "PostgreSQL refused a statement: \(message)\(detail.map { " (\($0))" } ?? "") (SQLSTATE \(sqlState))."
    }
}
