import CSQLCipher
import Foundation

/// A prepared statement.
///
/// You get statements from a ``Database`` with ``Database/makeStatement(sql:)``
/// or ``Database/cachedStatement(sql:)``, and use them only inside the
/// database access that created them:
///
/// ```swift
/// try dbQueue.write { db in
///     let statement = try db.makeStatement(sql: "INSERT INTO player (name) VALUES (?)")
///     for name in ["Arthur", "Barbara"] {
///         try statement.execute(arguments: [name])
///     }
/// }
/// ```
///
/// Statements are not `Sendable`: they belong to the connection that
/// prepared them.
///
/// See <https://www.sqlite.org/c3ref/stmt.html>.
public final class Statement {
    /// The raw `sqlite3_stmt` pointer.
    public let sqliteStatement: SQLiteStatement

    /// The SQL of the statement, trimmed.
    public let sql: String

    unowned let database: Database

    /// The arguments bound to the statement: those of the last execution
    /// or fetch, or set here.
    ///
    /// ```swift
    /// let statement = try db.makeStatement(sql: "INSERT INTO player (name) VALUES (?)")
    /// statement.arguments = ["Arthur"]
    /// try statement.execute()
    /// ```
    ///
    /// Setting arguments that do not fill the parameters is a programmer
    /// error, which stops the program: use ``setArguments(_:)`` when they
    /// may not.
    public var arguments: StatementArguments {
        get { boundArguments }
        set {
            do {
                try setArguments(newValue)
            } catch {
                fatalError("\(error)")
            }
        }
    }

    /// The arguments bound to the statement.
    private var boundArguments = StatementArguments()

    /// The number of columns of the rows the statement returns.
    public let columnCount: Int

    /// The region the statement reads: what the authorizer reported, plus
    /// the tables it opens without reading a column (`COUNT(*)`), which
    /// SQLite 3.15.2's authorizer does not report (3.19 does), as the
    /// request that prepared it narrows or extends it (``requestRegion``).
    public var databaseRegion: DatabaseRegion {
        guard let requestRegion else { return selectedRegion }
        return requestRegion.apply(to: selectedRegion, database)
    }

    /// What the SQL reads; computed on first use, for observations.
    private lazy var selectedRegion: DatabaseRegion = authorizedRegion.union(openedTablesRegion())

    /// How the query interface request that prepared the statement changes
    /// its region. It goes with the arguments: the statement cache resets
    /// it when it hands out the statement again.
    var requestRegion: RequestRegion?

    private let authorizedRegion: DatabaseRegion

    /// The columns the statement updates, per lowercased table name.
    let updatedColumns: [String: Set<String>]

    /// The lowercased names of the tables the statement writes, as the
    /// authorizer reported them.
    let modifiedTables: Set<String>

    /// What the statement does to the transaction, if anything.
    let transactionEffect: TransactionEffect?

    /// Parameter names without their prefix (`:`, `$`, `@`), or nil for
    /// positional parameters.
    let parameterNames: [String?]

    private let hasNamedParameters: Bool

    /// Whether the statement changes the schema (`CREATE`, `DROP`,
    /// `ALTER`, `ATTACH`, `DETACH`), which invalidates the caches of the
    /// connection.
    private let isSchemaChange: Bool

    private let parameterCount: CInt

    /// The column names and the case-insensitive lookup of their indexes,
    /// built once and shared by every row copied from this statement.
    private(set) lazy var layout = RowLayout(columnNames: (0..<columnCount).map {
        String(cString: sqlite3_column_name(sqliteStatement, CInt($0)))
    })

    /// The names of the columns, left to right.
    public var columnNames: [String] { layout.columnNames }

    /// Whether the statement does not write to the database.
    ///
    /// See <https://www.sqlite.org/c3ref/stmt_readonly.html>.
    public var isReadonly: Bool { sqlite3_stmt_readonly(sqliteStatement) != 0 }

    /// Prepares the first statement found at `start`, and sets `tail` to the
    /// rest of the string. Returns nil for an empty statement (blank or
    /// comment only).
    static func prepare(
        database: Database,
        start: UnsafePointer<CChar>,
        tail: inout UnsafePointer<CChar>?) throws -> Statement?
    {
        if database.wasKeyedOnEmptyFile { try database.checkSaltOfNewFile() }
        var sqliteStatement: SQLiteStatement?
        let authorizer = StatementAuthorizer()
        database.currentAuthorizer = authorizer
        database.isPreparingDrop = false
        let code = sqlite3_prepare_v2(database.handle, start, -1, &sqliteStatement, &tail)
        database.currentAuthorizer = nil
        guard code == SQLITE_OK else {
            // SQLite does not say where a statement that fails to compile
            // ends: report the rest of the string.
            throw DatabaseError(resultCode: code, message: database.lastErrorMessage, sql: trimmedSQL(String(cString: start)))
        }
        guard let sqliteStatement else { return nil }
        return Statement(database: database, sqliteStatement: sqliteStatement, authorizer: authorizer)
    }

    private init(database: Database, sqliteStatement: SQLiteStatement, authorizer: StatementAuthorizer) {
        self.database = database
        self.authorizedRegion = authorizer.selectedRegion
        self.updatedColumns = authorizer.updatedColumns
        self.modifiedTables = authorizer.modifiedTables
        self.transactionEffect = authorizer.transactionEffect
        self.sqliteStatement = sqliteStatement
        self.sql = Statement.trimmedSQL(String(cString: sqlite3_sql(sqliteStatement)))
        self.columnCount = Int(sqlite3_column_count(sqliteStatement))
        self.parameterCount = sqlite3_bind_parameter_count(sqliteStatement)
        // Constants, not lazy properties: each execution reads them, and a
        // lazy property of a class pays an exclusivity check at each read.
        self.parameterNames = (0..<parameterCount).map { index in
            guard let cString = sqlite3_bind_parameter_name(sqliteStatement, index + 1) else { return nil }
            let name = String(cString: cString)
            guard let first = name.first, ":$@".contains(first) else { return nil }
            return String(name.dropFirst())
        }
        self.hasNamedParameters = parameterNames.contains { $0 != nil }
        self.isSchemaChange = authorizer.changesSchema
    }

    deinit {
        sqlite3_finalize(sqliteStatement)
    }

    /// Whether the rest of an SQL string holds no statement: only
    /// whitespace and semicolons. Stops at the first other byte, so that
    /// checking after each statement of a long script stays cheap.
    static func isBlank(_ tail: UnsafePointer<CChar>) -> Bool {
        var cursor = tail
        while true {
            switch UInt8(bitPattern: cursor.pointee) {
            case 0: return true
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: ";"): cursor += 1
            default: return false
            }
        }
    }

    /// The SQL without the white space and semicolons around it, for
    /// homogeneous output: `" SELECT 1;"` is `"SELECT 1"`.
    static func trimmedSQL(_ sql: String) -> String {
        var sql = Substring(sql)
        while let last = sql.last, last.isWhitespace || last == ";" { sql.removeLast() }
        while let first = sql.first, first.isWhitespace || first == ";" { sql.removeFirst() }
        return String(sql)
    }

    /// The index of the leftmost column with that name (case-insensitive).
    public func index(ofColumn name: String) -> Int? {
        layout.index(ofColumn: name)
    }

    // MARK: - Arguments

    /// Checks that `arguments` fill every parameter, with none left over.
    public func validateArguments(_ arguments: StatementArguments) throws {
        var arguments = arguments
        _ = try arguments.extractBindings(forParameterNames: parameterNames, sql: sql, allowingRemainingValues: false)
    }

    /// Validates and binds arguments.
    public func setArguments(_ arguments: StatementArguments) throws {
        try reset()
        try bind(arguments)
    }

    /// Binds arguments that the caller knows to be valid.
    public func setUncheckedArguments(_ arguments: StatementArguments) {
        try? setArguments(arguments)
    }

    private func bind(_ arguments: StatementArguments) throws {
        if hasNamedParameters, arguments.values.isEmpty, bindNamedValues(of: arguments) {
            self.boundArguments = arguments
        } else if hasNamedParameters || !arguments.namedValues.isEmpty {
            var remaining = arguments
            let bindings = try remaining.extractBindings(
                forParameterNames: parameterNames, sql: sql, allowingRemainingValues: false)
            for (index, dbValue) in bindings.enumerated() {
                try checkBinding(dbValue.bind(to: sqliteStatement, at: CInt(index + 1)))
            }
        } else {
            guard arguments.values.count == Int(parameterCount) else {
                throw DatabaseError(resultCode: .SQLITE_MISUSE,
                                    message: "wrong number of statement arguments: \(arguments.values.count)", sql: sql)
            }
            var index: CInt = 1
            for dbValue in arguments.values {
                try checkBinding(dbValue.bind(to: sqliteStatement, at: index))
                index += 1
            }
        }
        self.boundArguments = arguments
    }

    /// Binds named values straight from the arguments; false when a
    /// parameter has no value (or no name), for the general path to
    /// report.
    private func bindNamedValues(of arguments: StatementArguments) -> Bool {
        var index: CInt = 1
        var hint = 0
        for name in parameterNames {
            guard let name, let dbValue = arguments.namedValues.value(forName: name, hint: &hint),
                  dbValue.bind(to: sqliteStatement, at: index) == SQLITE_OK else { return false }
            index += 1
        }
        return true
    }

    /// Binds values already extracted from multi-statement arguments.
    func bind(extractedValues: [DatabaseValue], arguments: StatementArguments) throws {
        var index: CInt = 1
        for dbValue in extractedValues {
            try checkBinding(dbValue.bind(to: sqliteStatement, at: index))
            index += 1
        }
        self.boundArguments = arguments
    }

    @inline(__always)
    private func checkBinding(_ code: CInt) throws {
        if code != SQLITE_OK {
            throw DatabaseError(resultCode: code, message: database.lastErrorMessage, sql: sql)
        }
    }

    // MARK: - Execution

    /// Resets the statement so that it can run again. Bindings are kept.
    func reset() throws {
        // sqlite3_reset repeats the error of the last step, which was
        // already reported: only misuse is worth throwing here.
        let code = sqlite3_reset(sqliteStatement)
        if code == SQLITE_MISUSE {
            throw DatabaseError(resultCode: code, message: database.lastErrorMessage, sql: sql)
        }
    }

    /// Resets the statement and binds new arguments, if any.
    func prepareExecution(arguments: StatementArguments?) throws {
        // One strong reference for the two uses: each read of an unowned
        // reference is an atomic retain.
        let database = self.database
        try database.checkIsOpen()
        try database.statementWillExecute(self)
        sqlite3_reset(sqliteStatement)
        executionCount &+= 1
        if let arguments {
            try bind(arguments)
        }
    }

    /// The number of times the statement was prepared for execution: a
    /// cursor that is released before its end resets the statement only
    /// if nothing ran it since the cursor started.
    private(set) var executionCount: UInt64 = 0

    /// Executes the statement, stepping over any row it returns.
    ///
    /// ```swift
    /// let statement = try db.makeStatement(sql: "INSERT INTO player (name) VALUES (?)")
    /// try statement.execute(arguments: ["Arthur"])
    /// ```
    public func execute(arguments: StatementArguments? = nil) throws {
        try prepareExecution(arguments: arguments)
        try runToCompletion()
    }

    /// Steps until SQLITE_DONE, and resets the statement so that it holds
    /// no lock.
    func runToCompletion() throws {
        var failure: DatabaseError?
        stepping: while true {
            switch sqlite3_step(sqliteStatement) {
            case SQLITE_DONE:
                break stepping
            case SQLITE_ROW:
                continue
            case let code:
                failure = stepError(code)
                break stepping
            }
        }
        sqlite3_reset(sqliteStatement)
        let database = self.database
        // Statements cached before the change may read other objects than
        // new ones would: a table of `main` now shadows an attached one.
        if isSchemaChange { database.clearStatementCache() }
        // A commit cancelled by an observer throws the observer's error.
        try database.statementDidExecute(self, failed: failure != nil)
        if let failure { throw failure }
    }

    /// The error for a failed `sqlite3_step`, with the SQL and the arguments
    /// (shown only if the configuration makes them public).
    func stepError(_ code: CInt) -> DatabaseError {
        let extendedCode = sqlite3_extended_errcode(database.handle)
        return database.explainingSaltMismatch(DatabaseError(
            resultCode: extendedCode & 0xFF == code & 0xFF ? extendedCode : code,
            message: database.lastErrorMessage,
            sql: sql,
            arguments: arguments,
            publicStatementArguments: database.configuration.publicStatementArguments))
    }
}

// MARK: - Region

extension Statement {
    /// The tables that the program of the statement opens for reading, from
    /// the `OpenRead` instructions of `EXPLAIN`, each as a whole table.
    ///
    /// See <https://www.sqlite.org/opcode.html#OpenRead>.
    fileprivate func openedTablesRegion() -> DatabaseRegion {
        guard isReadonly else { return DatabaseRegion() }
        var explain: SQLiteStatement?
        guard sqlite3_prepare_v2(database.handle, "EXPLAIN " + sql, -1, &explain, nil) == SQLITE_OK, let explain else {
            return DatabaseRegion()
        }
        defer { sqlite3_finalize(explain) }
        var rootPages: Set<Int64> = []
        while sqlite3_step(explain) == SQLITE_ROW {
            // Columns: addr, opcode, p1, p2 (root page), p3 (database: 0 main).
            guard let opcode = sqlite3_column_text(explain, 1),
                  strcmp(UnsafeRawPointer(opcode).assumingMemoryBound(to: CChar.self), "OpenRead") == 0,
                  sqlite3_column_int64(explain, 4) == 0
            else { continue }
            rootPages.insert(sqlite3_column_int64(explain, 3))
        }
        guard !rootPages.isEmpty else { return DatabaseRegion() }
        // Raw calls: a Statement would record its own region, recursively.
        var tables: SQLiteStatement?
        guard sqlite3_prepare_v2(database.handle, "SELECT tbl_name, rootpage FROM sqlite_master WHERE rootpage > 0",
                                 -1, &tables, nil) == SQLITE_OK, let tables else {
            return DatabaseRegion()
        }
        defer { sqlite3_finalize(tables) }
        var region = DatabaseRegion()
        while sqlite3_step(tables) == SQLITE_ROW {
            guard rootPages.contains(sqlite3_column_int64(tables, 1)),
                  let name = sqlite3_column_text(tables, 0) else { continue }
            let table = String(cString: name)
            // Tables already read column by column keep their columns.
            if !authorizedRegion.mentions(table: table) {
                region.formUnion(DatabaseRegion(table: table))
            }
        }
        return region
    }
}

extension Statement: CustomStringConvertible {
    /// The SQL of the statement, with no argument.
    public var description: String { sql }
}
