import CSQLCipher

/// A cursor that steps a statement. Once exhausted, or after an error, it
/// resets the statement so that it holds no lock; then it returns nil for
/// ever, or, after an error, throws it again at every call.
///
/// See <https://www.sqlite.org/c3ref/step.html>.
public protocol DatabaseCursor<Element>: Cursor {
    /// The statement the cursor steps.
    var statement: Statement { get }
}

// Read-only views of the statement, so that nothing changes the statement
// under a cursor that steps it.
extension DatabaseCursor {
    /// The SQL of the statement.
    public var sql: String { statement.sql }

    /// The arguments the statement is bound to.
    public var arguments: StatementArguments { statement.arguments }

    /// The column names, from left to right.
    public var columnNames: [String] { statement.columnNames }

    /// The number of columns of the rows.
    public var columnCount: Int { statement.columnCount }

    /// The database region the cursor reads.
    public var databaseRegion: DatabaseRegion { statement.databaseRegion }
}

/// The stepping shared by the database cursors. A class, so that cursors
/// hold it in a constant: a mutating step on a stored struct would pay an
/// exclusivity check around every `sqlite3_step`.
final class StatementStepper {
    let statement: Statement
    let sqliteStatement: SQLiteStatement
    private var isDone = false
    /// The error of a failed step, thrown again by every later step: a
    /// cursor that failed never looks exhausted, as GRDB's do not.
    private var failure: (any Error)?

    /// The execution of the statement this stepper steps.
    private let execution: UInt64

    init(statement: Statement, arguments: StatementArguments?) throws {
        self.statement = statement
        self.sqliteStatement = statement.sqliteStatement
        try statement.prepareExecution(arguments: arguments)
        execution = statement.executionCount
    }

    /// Released before its end (by its cursor, and by the live row that
    /// keeps it), the stepper resets its statement. A statement left
    /// running holds the read transaction of its connection open: later
    /// reads of a pool's reader would see an old snapshot, and `DROP TABLE`
    /// (`erase()`) or a backup into the database would fail.
    deinit {
        if !isDone && statement.executionCount == execution {
            sqlite3_reset(sqliteStatement)
        }
    }

    /// Moves to the next row; false when there is none.
    @inline(__always)
    func step() throws -> Bool {
        if isDone {
            if let failure { throw failure }
            return false
        }
        switch sqlite3_step(sqliteStatement) {
        case SQLITE_ROW:
            return true
        case SQLITE_DONE:
            isDone = true
            sqlite3_reset(sqliteStatement)
            try statement.database.statementDidExecute(statement, failed: false)
            return false
        case let code:
            isDone = true
            let error = statement.stepError(code)
            failure = error
            sqlite3_reset(sqliteStatement)
            try statement.database.statementDidExecute(statement, failed: true)
            throw error
        }
    }
}

extension Row {
    /// The row a cursor reuses at each step: the live row of `statement`,
    /// adapted. The adapter is resolved here, once per statement.
    static func cursorRow(statement: Statement, adapter: (any RowAdapter)?) throws -> Row {
        let row = Row(statement: statement)
        guard let adapter else { return row }
        return try Row(base: row, adapter: adapter.layouted(for: statement), reused: true)
    }
}

extension RowAdapter {
    /// The adapter resolved for the columns of `statement`.
    func layouted(for statement: Statement) throws -> _LayoutedRowAdapter {
        try _layoutedAdapter(from: _LayoutedRowAdapter(identityOf: statement.layout))
    }

    /// The statement column of the leftmost adapted column, which value
    /// cursors read.
    func leftmostColumnIndex(in statement: Statement) throws -> CInt {
        guard let index = try layouted(for: statement).baseIndexes.first else {
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "adapted rows have no column", sql: statement.sql)
        }
        return CInt(index)
    }
}

/// A cursor of rows. The same ``Row`` instance is returned at each step:
/// ``Row/copy()`` it to keep it.
public final class RowCursor: DatabaseCursor {
    public var statement: Statement { stepper.statement }
    private let stepper: StatementStepper
    private let row: Row

    init(statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws {
        row = try Row.cursorRow(statement: statement, adapter: adapter)
        stepper = try StatementStepper(statement: statement, arguments: arguments)
        row.cursorStepper = stepper
    }

    public func next() throws -> Row? {
        try stepper.step() ? row : nil
    }
}

/// A cursor of values decoded from the leftmost column.
public final class DatabaseValueCursor<Value: DatabaseValueConvertible>: DatabaseCursor {
    public var statement: Statement { stepper.statement }
    private let stepper: StatementStepper
    private let columnIndex: CInt

    init(statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws {
        columnIndex = try adapter?.leftmostColumnIndex(in: statement) ?? 0
        stepper = try StatementStepper(statement: statement, arguments: arguments)
    }

    public func next() throws -> Value? {
        guard try stepper.step() else { return nil }
        return try Value.decode(DatabaseValue(sqliteStatement: stepper.sqliteStatement, index: columnIndex),
                                context: RowDecodingContext(column: statement.columnNames[Int(columnIndex)], sql: statement.sql))
    }
}

/// A cursor of values read straight from the leftmost column, with no
/// intermediate ``DatabaseValue``.
public final class FastDatabaseValueCursor<Value: DatabaseValueConvertible & StatementColumnConvertible>: DatabaseCursor {
    public var statement: Statement { stepper.statement }
    private let stepper: StatementStepper
    private let columnIndex: CInt

    init(statement: Statement, arguments: StatementArguments? = nil, adapter: (any RowAdapter)? = nil) throws {
        columnIndex = try adapter?.leftmostColumnIndex(in: statement) ?? 0
        stepper = try StatementStepper(statement: statement, arguments: arguments)
    }

    @inline(__always)
    public func next() throws -> Value? {
        guard try stepper.step() else { return nil }
        return try Value.decode(sqliteStatement: stepper.sqliteStatement, index: columnIndex,
                                context: RowDecodingContext(column: statement.columnNames[Int(columnIndex)], sql: statement.sql))
    }
}
