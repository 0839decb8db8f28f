/// A cursor of the prepared statements of an SQL string that holds several,
/// separated by semicolons.
///
/// ```swift
/// let statements = try db.allStatements(sql: """
///     INSERT INTO player (name) VALUES (?);
///     INSERT INTO player (name) VALUES (?);
///     """, arguments: ["Arthur", "Barbara"])
/// while let statement = try statements.next() {
///     try statement.execute()
/// }
/// ```
///
/// With arguments, each statement is bound to the ones it consumes, in
/// order, and arguments left over after the last statement are an error,
/// thrown by the call to `next()` that finds no more statement. Without
/// arguments, the statements are returned unbound.
///
/// A cursor is valid only during the database access that created it.
///
/// See <https://www.sqlite.org/c3ref/prepare.html>.
public final class SQLStatementCursor: Cursor {
    private let database: Database
    private let cString: ContiguousArray<CChar>
    /// Where the next statement starts in `cString`.
    private var offset = 0
    /// The arguments not consumed yet, or nil when the statements are
    /// bound later.
    private var remainingArguments: StatementArguments?
    private let initialArgumentCount: Int

    init(database: Database, sql: String, arguments: StatementArguments?) {
        self.database = database
        self.cString = sql.utf8CString
        self.remainingArguments = arguments
        self.initialArgumentCount = arguments?.values.count ?? 0
    }

    public func next() throws -> Statement? {
        try database.checkIsOpen()
        while offset < cString.count - 1 { // the last CChar is the terminating NUL
            let statement = try cString.withUnsafeBufferPointer { buffer -> Statement? in
                let start = buffer.baseAddress!
                var tail: UnsafePointer<CChar>?
                let statement = try Statement.prepare(database: database, start: start + offset, tail: &tail)
                offset = tail.map { $0 - start } ?? cString.count - 1
                return statement
            }
            // A comment or blank between two semicolons is no statement.
            guard let statement else { continue }
            if var arguments = remainingArguments {
                let bindings = try arguments.extractBindings(
                    forParameterNames: statement.parameterNames, sql: statement.sql, allowingRemainingValues: true)
                try statement.bind(extractedValues: bindings, arguments: StatementArguments(values: bindings))
                remainingArguments = arguments
            }
            return statement
        }
        if let remainingArguments, !remainingArguments.values.isEmpty {
            throw DatabaseError(
                resultCode: .SQLITE_MISUSE,
                message: "wrong number of statement arguments: \(initialArgumentCount)")
        }
        return nil
    }
}

// Cursors run in the database access that created them.
@available(*, unavailable)
extension SQLStatementCursor: Sendable {}

extension Database {
    /// Returns a cursor of the prepared statements of an SQL string.
    ///
    /// ```swift
    /// let statements = try db.allStatements(sql: """
    ///     SELECT COUNT(*) FROM player WHERE score < ?;
    ///     SELECT COUNT(*) FROM player WHERE score > ?;
    ///     """, arguments: [1000, 2000])
    /// let counts = try statements.map { try Int.fetchOne($0)! }
    /// ```
    ///
    /// With `arguments`, each statement is bound to the arguments it needs,
    /// in order, and all must be used. Without, the statements are unbound.
    public func allStatements(sql: String, arguments: StatementArguments? = nil) throws -> SQLStatementCursor {
        try checkIsOpen()
        return SQLStatementCursor(database: self, sql: sql, arguments: arguments)
    }

    /// Returns a cursor of the prepared statements of an SQL literal, bound
    /// to its interpolated values (or unbound when it has none).
    ///
    /// ```swift
    /// let statements = try db.allStatements(literal: """
    ///     INSERT INTO player (name) VALUES (\(name1));
    ///     INSERT INTO player (name) VALUES (\(name2));
    ///     """)
    /// ```
    public func allStatements(literal sqlLiteral: SQL) throws -> SQLStatementCursor {
        let (sql, arguments) = try sqlLiteral.build(self)
        return try allStatements(sql: sql, arguments: arguments.isEmpty ? nil : arguments)
    }
}
