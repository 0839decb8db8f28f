/// One SQL statement and the values bound to its parameters, written with
/// interpolation: each interpolated value becomes a parameter (`$1`, `$2`,
/// …) sent apart from the SQL, never spliced into it.
///
/// ```swift
/// let query: PostgresQuery = "SELECT name FROM player WHERE uuid = \(uuid) LIMIT \(limit)"
/// // sql: "SELECT name FROM player WHERE uuid = $1 LIMIT $2"
/// ```
///
/// `\(unescaped: name)` splices text into the SQL as it is: for names
/// that cannot be parameters (a table, a database), never for input.
package struct PostgresQuery: Sendable, ExpressibleByStringInterpolation {
    /// The SQL, with `$n` where values were interpolated.
    package var sql: String
    /// The parameters' values, in order.
    package var bindings: [PostgresBinding]
    /// Whether the connection prepares the statement once and runs it
    /// again by name (``prepared()``).
    package private(set) var isPrepared = false

    /// The statement, prepared by each connection the first time it runs
    /// it and then run by name: PostgreSQL plans it at most a few times
    /// per connection instead of at every run. For the statements of the
    /// hot paths, whose text is always the same; a connection prepares
    /// at most ``PostgresConnection/maximumPreparedStatements``.
    package func prepared() -> PostgresQuery {
        var query = self
        query.isPrepared = true
        return query
    }

    /// A statement written in full, without parameters.
    package init(unsafeSQL sql: String) {
        self.sql = sql
        bindings = []
    }

    package init(stringLiteral value: String) {
        self.init(unsafeSQL: value)
    }

    package init(stringInterpolation: StringInterpolation) {
        sql = stringInterpolation.sql
        bindings = stringInterpolation.bindings
    }

    package struct StringInterpolation: StringInterpolationProtocol {
        var sql = ""
        var bindings: [PostgresBinding] = []

        package init(literalCapacity: Int, interpolationCount: Int) {
            sql.reserveCapacity(literalCapacity + 3 * interpolationCount)
            bindings.reserveCapacity(interpolationCount)
        }

        package mutating func appendLiteral(_ literal: String) {
            sql += literal
        }

        package mutating func appendInterpolation<Value: PostgresEncodable>(_ value: Value) {
            bindings.append(PostgresBinding(value))
            sql += "$\(bindings.count)"
        }

        /// A nil value is SQL's NULL, of the value's type.
        package mutating func appendInterpolation<Value: PostgresEncodable>(_ value: Value?) {
            bindings.append(value.map(PostgresBinding.init) ?? PostgresBinding(null: Value.postgresType))
            sql += "$\(bindings.count)"
        }

        package mutating func appendInterpolation(unescaped text: String) {
            sql += text
        }
    }
}

/// A parameter's value in PostgreSQL's binary format, with its type.
package struct PostgresBinding: Sendable {
    /// The type's object id (`pg_type.oid`).
    package var type: PostgresType
    /// The bytes; nil for NULL.
    package var bytes: [UInt8]?

    init<Value: PostgresEncodable>(_ value: Value) {
        var bytes: [UInt8] = []
        value.encode(into: &bytes)
        self.init(type: Value.postgresType, bytes: bytes)
    }

    init(null type: PostgresType) {
        self.init(type: type, bytes: nil)
    }

    private init(type: PostgresType, bytes: [UInt8]?) {
        self.type = type
        self.bytes = bytes
    }
}
