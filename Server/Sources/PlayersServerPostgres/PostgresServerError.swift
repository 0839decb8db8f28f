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
        func field(_ code: Character) -> String? {
            PQresultErrorField(result, Int32(code.asciiValue!)).map { String(cString: $0) }
        }
        sqlState = field("C") ?? "XX000"
        message = field("M") ?? String(cString: PQresultErrorMessage(result))
        detail = field("D")
    }

    package var description: String {
        "PostgreSQL refused a statement: \(message)\(detail.map { " (\($0))" } ?? "") (SQLSTATE \(sqlState))."
    }
}
