import CPostgres

/// The rows that a statement returned, in PostgreSQL's binary format, read
/// with ``decode(_:)``.
///
/// ```swift
/// let rows = try await connection.query("SELECT uuid, name FROM player", logger: logger)
/// for (uuid, name) in try rows.decode((UUID, String).self) { … }
/// ```
package final class PostgresRows: @unchecked Sendable {
    // @unchecked: the result is read only, never changed after libpq made
    // it, and freed once, when the last reference goes; libpq's results
    // do not depend on their connection.
    private let result: OpaquePointer

    init(_ result: OpaquePointer) {
        self.result = result
    }

    deinit {
        PQclear(result)
    }

    /// How many rows.
    package var count: Int { Int(PQntuples(result)) }

    /// The rows, each as a tuple of the given column types, in order.
    /// Throws ``PostgresDecodingError`` when the statement returned another
    /// number of columns, or a column that the type cannot read.
    package func decode<each Column: PostgresDecodable>(
        _ columns: (repeat each Column).Type
    ) throws(PostgresDecodingError) -> [(repeat each Column)] {
        var expected = 0
        for _ in repeat (each Column).self { expected += 1 }
        let columnCount = Int(PQnfields(result))
        guard columnCount == expected else {
            throw PostgresDecodingError("the statement returned \(columnCount) columns, not the \(expected) read.")
        }
        let types = (0..<Int32(columnCount)).map { PostgresType(rawValue: PQftype(result, $0)) }
        var rows: [(repeat each Column)] = []
        rows.reserveCapacity(count)
        for row in 0..<Int32(count) {
            var column: Int32 = 0
            rows.append((repeat try value(row, &column, types, (each Column).self)))
        }
        return rows
    }

    /// The first row, if any (``decode(_:)``).
    package func first<each Column: PostgresDecodable>(
        _ columns: (repeat each Column).Type
    ) throws(PostgresDecodingError) -> (repeat each Column)? {
        try decode(columns).first
    }

    private func value<Value: PostgresDecodable>(
        _ row: Int32, _ column: inout Int32, _ types: [PostgresType], _: Value.Type
    ) throws(PostgresDecodingError) -> Value {
        defer { column += 1 }
        guard PQgetisnull(result, row, column) == 0 else {
            return try Value(postgresBytes: nil, type: types[Int(column)])
        }
        let length = Int(PQgetlength(result, row, column))
        let bytes = UnsafeRawBufferPointer(start: PQgetvalue(result, row, column), count: length)
        return try Value(postgresBytes: bytes, type: types[Int(column)])
    }
}
