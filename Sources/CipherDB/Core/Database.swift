import CSQLCipher
import Foundation
import Synchronization

/// A connection to a database, opened with SQLCipher.
///
/// You never create a `Database` yourself: a ``DatabaseQueue`` or a
/// ``DatabasePool`` hands one to the closures of its accesses:
///
/// ```swift
/// try dbQueue.write { db in
///     try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["Arthur"])
///     let id = db.lastInsertedRowID
/// }
/// ```
///
/// `Database` is not `Sendable`: the queue or pool that owns it runs every
/// access on one serial dispatch queue, and that is what makes it safe.
///
/// See <https://www.sqlite.org/c3ref/sqlite3.html>.
public final class Database {
    /// The raw `sqlite3` pointer, or nil once the connection is closed.
    public var sqliteConnection: SQLiteConnection? { isClosed ? nil : handle }

    /// The pointer used internally; valid until the connection is closed.
    let handle: SQLiteConnection

    /// The configuration of the connection.
    public let configuration: Configuration

    /// The path of the database file (`:memory:` for in-memory databases).
    public let path: String

    /// A description of the connection, for logs: the configuration label
    /// and the role of the connection (`writer`, `reader.1`…).
    public let description: String

    private(set) var isClosed = false

    /// Cached statements, by SQL.
    private var statementCache: [String: Statement] = [:]
    /// The schema version a read of a pool last found: when another
    /// connection changed the schema since, the cached statements go (a
    /// `SELECT *` prepared before a column was added would keep the old
    /// columns), as GRDB's readers clear theirs.
    var statementsSchemaVersion: Int32?

    /// What completes the schema SQLite reports: the configuration's
    /// ``Configuration/schemaSource``, nil during migrations.
    public internal(set) var schemaSource: (any DatabaseSchemaSource)?

    /// Schema information and record statements, valid until the schema
    /// changes.
    var schemaCache = SchemaCache()

    // MARK: - Hooks kept alive while registered

    var traceHandler: ((TraceEvent) -> Void)?
    var busyHandlerBox: Unmanaged<BusyCallbackBox>?
    var functionBoxes: [DatabaseFunction.Identity: DatabaseFunction] = [:]
    var collationBoxes: [String: DatabaseCollation] = [:]

    /// Whether a key was given to this connection with ``usePassphrase(_:)``
    /// or ``useRawKey(_:)``.
    var hasCodecKey = false

    /// Whether the key was given while the main file was still empty:
    /// SQLCipher then drew a salt for this connection alone, and another
    /// connection that writes the file first makes it wrong.
    var wasKeyedOnEmptyFile = false

    /// Whether the statements that run now are CipherDB's own checks,
    /// which ``trace(options:_:)`` does not report.
    var hidesStatementsFromTrace = false

    /// The rounds of the key a ``PassphraseKeyCache`` derived for this
    /// connection, checked once `prepareDatabase` is done.
    var cachedKeyRounds: Int?

    /// The depth of nested ``readOnly(_:)`` accesses.
    var readOnlyDepth = 0

    /// Whether an ``inTransaction(_:_:)`` or ``inSavepoint(_:)`` block runs:
    /// see `checkForAbortedTransaction()`.
    var isInsideTransactionBlock = false

    /// Set by the cancellation of the task of an async access: every
    /// statement of the access then fails, including one that starts after
    /// `sqlite3_interrupt` was called (which only stops running statements).
    let cancellation = CancellationFlag()

    /// The clock's date when the current transaction began; nil outside of
    /// transactions. See ``transactionDate``.
    var transactionDateResult: Result<Date, any Error>?

    /// The transaction observers and SQLite's hooks.
    private(set) lazy var observationBroker = DatabaseObservationBroker(self)

    /// Collects what statements read and update while they are prepared.
    var currentAuthorizer: StatementAuthorizer?

    /// Whether the statement being prepared is a DROP: see `installAuthorizer()`.
    var isPreparingDrop = false

    /// When set, collects the regions read by the statements that run: the
    /// region a `ValueObservation` tracks.
    var regionRecorder: DatabaseRegion?

    // MARK: - Opening

    /// Opens a connection, runs the `prepareDatabase` functions, checks that
    /// the file is readable with the key they gave, and applies the
    /// configuration.
    init(path: String, description: String, configuration: Configuration) throws {
        var flags = configuration.readonly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        // Each connection is used by one dispatch queue at a time. URIs
        // (`file:name?mode=memory&cache=shared`) are accepted.
        flags |= SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI
        let (code, connection) = Database.openConnection(path, flags: flags)
        guard let connection else {
            throw DatabaseError(resultCode: code, message: "could not open a database connection (out of memory)")
        }
        guard code == SQLITE_OK else {
            let message = String(cString: sqlite3_errmsg(connection))
            sqlite3_close_v2(connection)
            throw DatabaseError(resultCode: code, message: "\(message): \(path)")
        }
        self.handle = connection
        self.path = path
        self.description = description
        self.configuration = configuration
        self.schemaSource = configuration.schemaSource
        do {
            try setUp()
        } catch {
            close_v2()
            throw error
        }
    }

    /// Opens a SQLite connection (`sqlite3_open_v2`) once SQLite has
    /// CipherDB's process-wide configuration (``configureSQLiteOnce``),
    /// which it takes only before its first connection: every connection
    /// CipherDB opens goes through here, those of its own checks included.
    static func openConnection(_ path: String, flags: CInt) -> (code: CInt, connection: SQLiteConnection?) {
        _ = configureSQLiteOnce
        var connection: SQLiteConnection?
        let code = sqlite3_open_v2(path, &connection, flags, nil)
        return (code, connection)
    }

    /// Process-wide SQLite configuration, done before the first connection.
    /// Configures SQLite before its first connection; false if other code
    /// initialized SQLite first, which then takes no configuration.
    static let configureSQLiteOnce: Bool = {
        // Connections are serialized by CipherDB itself: SQLite need not
        // lock them. Fails harmlessly if SQLite was already initialized.
        _ = cipherdb_config_multithread()
        return registerErrorLog()
    }()

    private func setUp() throws {
        sqlite3_extended_result_codes(handle, 1)
        installCallbacks()
        setUpBusyMode()
        DatabaseCollation.builtIns.forEach { add(collation: $0) }
        DatabaseFunction.builtIns.forEach { add(function: $0) }
        // Temporary tables and indexes (sorts, subqueries) stay in memory
        // and never reach the disk. SQLCipher requires builds with
        // SQLITE_TEMP_STORE=2; this holds even for a build that differs.
        try execute(sql: "PRAGMA temp_store = MEMORY")

        // The key must be given before anything reads the file.
        for preparation in configuration.preparations {
            try preparation(self)
        }

        try validateCachedKeyRounds()
        wasKeyedOnEmptyFile = hasCodecKey && isMainFileEmpty
        try validateFormat()
        try Database.validateSQLCipher(self)
        if configuration.foreignKeysEnabled {
            try execute(sql: "PRAGMA foreign_keys = ON")
        }
    }

    /// Reads the schema, so that a wrong key, a missing key or a file that
    /// is not a database fails at open time rather than at first use.
    private func validateFormat() throws {
        do {
            _ = try Row.fetchOne(makeStatement(sql: "SELECT * FROM sqlite_master LIMIT 1"))
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            // SQLite's message, as GRDB has it, without the SQL of this
            // check; the description says more.
            throw DatabaseError(resultCode: error.extendedResultCode, message: error.message).explained(
                "cannot read the database at \(path): the passphrase or key is wrong or missing, or the file is not an encrypted database")
        }
    }

    // MARK: - Closing

    /// Closes the connection: finalizes the cached statements, then calls
    /// `sqlite3_close`. Throws if the connection is still in use by
    /// statements that were not released.
    func close() throws {
        guard !isClosed else { return }
        observationBroker.uninstallHooks()
        releaseCachedStatements()
        // Detached while the handle is valid: once sqlite3_close succeeds
        // it is freed memory, and a call on it reads whatever took its
        // place (it crashed a test process in pthread_mutex_lock).
        removeCallbacks()
        let code = sqlite3_close(handle)
        guard code == SQLITE_OK else {
            // Still open, with its statements: it keeps its callbacks.
            installCallbacks()
            throw DatabaseError(resultCode: code, message: lastErrorMessage)
        }
        didClose()
    }

    /// Closes the connection even if statements are still alive: SQLite
    /// frees it when the last one is finalized, and until then none of
    /// them calls back into this object or its busy handler.
    func close_v2() {
        guard !isClosed else { return }
        observationBroker.uninstallHooks()
        releaseCachedStatements()
        removeCallbacks()
        sqlite3_busy_handler(handle, nil, nil)
        sqlite3_close_v2(handle)
        didClose()
    }

    /// The authorizer, and the progress handler that stops a cancelled
    /// access: checked every 1000 virtual machine instructions, so that an
    /// access stops even if it was cancelled between two statements. Both
    /// call back into this object (its cancellation flag lives as long as
    /// the connection).
    private func installCallbacks() {
        installAuthorizer()
        sqlite3_progress_handler(handle, 1000, { context in
            Unmanaged<CancellationFlag>.fromOpaque(context!).takeUnretainedValue().isCancelled ? 1 : 0
        }, Unmanaged.passUnretained(cancellation).toOpaque())
    }

    private func removeCallbacks() {
        sqlite3_set_authorizer(handle, nil, nil)
        sqlite3_progress_handler(handle, 0, nil, nil)
    }

    /// Releases the statements that the connection keeps for reuse, those
    /// of `cachedStatement` and those of records, so that `sqlite3_close`
    /// finds none of its own alive.
    private func releaseCachedStatements() {
        statementCache.removeAll()
        schemaCache = SchemaCache()
    }

    /// After the handle is freed (or a zombie): only this object's state.
    private func didClose() {
        isClosed = true
        busyHandlerBox?.release()
        busyHandlerBox = nil
    }

    deinit {
        close_v2()
    }

    func checkIsOpen() throws {
        if isClosed {
            throw DatabaseError.connectionIsClosed()
        }
    }

    /// Throws `CancellationError` if the task of the current async access
    /// was cancelled, unless `statement` ends a read-only transaction: a
    /// read whose task is cancelled once it has read all it needed
    /// succeeds, as in GRDB. (Rollbacks run with the cancellation put off.)
    @inline(__always)
    func checkNotCancelled(_ statement: Statement) throws {
        if cancellation.isCancelled {
            try checkCancelledStatement(statement)
        }
    }

    private func checkCancelledStatement(_ statement: Statement) throws {
        switch statement.transactionEffect {
        case .commitTransaction?, .releaseSavepoint?:
            if isReadOnly { return }
        default:
            break
        }
        throw CancellationError()
    }

    /// Frees as much memory as possible: the statement and schema caches,
    /// and the memory SQLite can release.
    ///
    /// See <https://www.sqlite.org/c3ref/db_release_memory.html>.
    public func releaseMemory() {
        clearStatementCache()
        if !isClosed {
            sqlite3_db_release_memory(handle)
        }
    }

    /// The version of SQLite, as a number: 3015002 for SQLite 3.15.2
    /// (SQLCipher 3.4.1).
    ///
    /// See <https://www.sqlite.org/c3ref/libversion.html>.
    public static var sqliteLibVersionNumber: CInt {
        sqlite3_libversion_number()
    }

    /// Copies the content of the WAL file into the database file, and
    /// returns the number of frames in the WAL and the number of frames
    /// copied (both -1 when the database is not in WAL mode).
    ///
    /// ```swift
    /// try dbPool.writeWithoutTransaction { db in
    ///     try db.checkpoint(.truncate)
    /// }
    /// ```
    ///
    /// See <https://www.sqlite.org/c3ref/wal_checkpoint_v2.html>.
    @discardableResult
    public func checkpoint(_ kind: CheckpointMode = .passive, on dbName: String? = "main") throws
        -> (walFrameCount: Int, checkpointedFrameCount: Int)
    {
        try checkIsOpen()
        var walFrameCount: CInt = -1
        var checkpointedFrameCount: CInt = -1
        let code = sqlite3_wal_checkpoint_v2(handle, dbName, kind.rawValue, &walFrameCount, &checkpointedFrameCount)
        guard code == SQLITE_OK else {
            throw DatabaseError(resultCode: code, message: lastErrorMessage)
        }
        return (walFrameCount: Int(walFrameCount), checkpointedFrameCount: Int(checkpointedFrameCount))
    }

    /// How ``checkpoint(_:on:)`` waits for readers and writers.
    ///
    /// See <https://www.sqlite.org/c3ref/wal_checkpoint_v2.html>.
    public enum CheckpointMode: CInt, Sendable {
        /// Copies as many frames as possible without waiting.
        case passive = 0
        /// Waits for the writer, then for the readers, and copies every frame.
        case full = 1
        /// Like `full`, and waits until new writers can restart the WAL.
        case restart = 2
        /// Like `restart`, and truncates the WAL file.
        case truncate = 3
    }

    // MARK: - Errors and counts

    /// The extended result code of the last failed call.
    public var lastErrorCode: ResultCode {
        ResultCode(rawValue: sqlite3_extended_errcode(handle))
    }

    /// The message of the last failed call.
    public var lastErrorMessage: String? {
        String(cString: sqlite3_errmsg(handle))
    }

    /// The rowid of the last successful insert.
    ///
    /// See <https://www.sqlite.org/c3ref/last_insert_rowid.html>.
    public var lastInsertedRowID: Int64 {
        sqlite3_last_insert_rowid(handle)
    }

    /// The maximum number of arguments of a statement
    /// (`SQLITE_LIMIT_VARIABLE_NUMBER`: 999 in SQLite 3.15.2).
    ///
    /// See <https://www.sqlite.org/limits.html>.
    public var maximumStatementArgumentCount: Int {
        Int(sqlite3_limit(handle, SQLITE_LIMIT_VARIABLE_NUMBER, -1))
    }

    /// The number of rows changed by the last INSERT, UPDATE or DELETE.
    ///
    /// See <https://www.sqlite.org/c3ref/changes.html>.
    public var changesCount: Int {
        Int(sqlite3_changes(handle))
    }

    /// The number of rows changed since the connection was opened.
    ///
    /// See <https://www.sqlite.org/c3ref/total_changes.html>.
    public var totalChangesCount: Int {
        Int(sqlite3_total_changes(handle))
    }

    /// Whether a transaction is open.
    ///
    /// See <https://www.sqlite.org/c3ref/get_autocommit.html>.
    public var isInsideTransaction: Bool {
        !isClosed && sqlite3_get_autocommit(handle) == 0
    }

    /// Interrupts the statement that runs on this connection, if any: it
    /// fails with `SQLITE_INTERRUPT`, and its transaction is rolled back.
    ///
    /// Safe to call from any thread while the connection is open; from
    /// outside an access, prefer ``DatabaseReader/interrupt()``.
    ///
    /// See <https://www.sqlite.org/c3ref/interrupt.html>.
    public func interrupt() {
        if !isClosed {
            sqlite3_interrupt(handle)
        }
    }

    // MARK: - Statements

    /// Prepares a new statement.
    ///
    /// ```swift
    /// let statement = try db.makeStatement(sql: "SELECT * FROM player WHERE id = ?")
    /// let row = try Row.fetchOne(statement, arguments: [1])
    /// ```
    ///
    /// Throws if the string holds zero or several statements.
    ///
    /// See <https://www.sqlite.org/c3ref/prepare.html>.
    public func makeStatement(sql: String) throws -> Statement {
        try checkIsOpen()
        return try sql.withCString { start in
            var tail: UnsafePointer<CChar>?
            guard let statement = try Statement.prepare(database: self, start: start, tail: &tail) else {
                throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "empty statement", sql: sql)
            }
            if let tail, !Statement.isBlank(tail) {
                throw DatabaseError(
                    resultCode: .SQLITE_MISUSE,
                    message: "Multiple statements found. To execute multiple statements, use Database.execute(sql:) or Database.allStatements(sql:) instead.",
                    sql: sql)
            }
            return statement
        }
    }

    /// Returns a prepared statement for `sql`, reused across calls: the
    /// way to run the same SQL many times without preparing it again.
    /// While the cached statement runs (a cursor of it is iterated), a new
    /// statement is returned instead.
    public func cachedStatement(sql: String) throws -> Statement {
        if let statement = statementCache[sql] {
            // A cached statement may still run when the same SQL is needed
            // again: a cursor is iterated while an observer fetches in the
            // access of a commit. Resetting it would restart the cursor.
            if sqlite3_stmt_busy(statement.sqliteStatement) == 0 {
                statement.requestRegion = nil
                return statement
            }
            return try makeStatement(sql: sql)
        }
        let statement = try makeStatement(sql: sql)
        statementCache[sql] = statement
        return statement
    }

    /// Returns a new prepared statement for an SQL literal, bound to its
    /// interpolated values.
    ///
    /// ```swift
    /// let statement = try db.makeStatement(literal: "SELECT * FROM player WHERE name = \(name)")
    /// ```
    public func makeStatement(literal sqlLiteral: SQL) throws -> Statement {
        try statement(for: sqlLiteral, prepare: makeStatement(sql:))
    }

    /// Returns a cached prepared statement for an SQL literal, bound to its
    /// interpolated values.
    public func cachedStatement(literal sqlLiteral: SQL) throws -> Statement {
        try statement(for: sqlLiteral, prepare: cachedStatement(sql:))
    }

    /// Prepares the SQL of a literal, and binds its arguments, checking
    /// that they fill the parameters.
    private func statement(for sqlLiteral: SQL, prepare: (String) throws -> Statement) throws -> Statement {
        let (sql, arguments) = try sqlLiteral.build(self)
        let statement = try prepare(sql)
        if !arguments.isEmpty {
            try statement.setArguments(arguments)
        }
        return statement
    }

    /// Finalizes the cached statements (after a schema change, for
    /// example, SQLite would otherwise prepare them again on first use).
    public func clearStatementCache() {
        statementCache.removeAll()
        schemaCache = SchemaCache()
    }

    /// Executes one or several SQL statements, separated by semicolons.
    ///
    /// ```swift
    /// try db.execute(sql: """
    ///     CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
    ///     INSERT INTO player (name) VALUES (?);
    ///     """, arguments: ["Arthur"])
    /// ```
    ///
    /// Positional arguments are consumed by the statements in order; all
    /// must be used.
    ///
    /// See <https://www.sqlite.org/lang.html>.
    public func execute(sql: String, arguments: StatementArguments = StatementArguments()) throws {
        let statements = try allStatements(sql: sql, arguments: arguments)
        while let statement = try statements.next() {
            // Observers learn which columns the statement updates, and
            // region recording what it reads, as for any statement.
            try statementWillExecute(statement)
            try statement.runToCompletion()
        }
    }

    /// Executes an SQL literal, whose interpolated values are bound as
    /// arguments, never spliced into the SQL.
    ///
    /// ```swift
    /// try db.execute(literal: "UPDATE player SET score = \(score) WHERE id IN \(ids)")
    /// ```
    public func execute(literal sqlLiteral: SQL) throws {
        let (sql, arguments) = try sqlLiteral.build(self)
        try execute(sql: sql, arguments: arguments)
    }

    /// Runs an internal statement through the cache, with no arguments.
    func executeCached(sql: String) throws {
        try cachedStatement(sql: sql).execute()
    }
}

// MARK: - Busy mode

extension Database {
    /// A callback that decides whether to retry when the database is
    /// locked. Its argument is the number of times it was already called
    /// for the same lock.
    public typealias BusyCallback = @Sendable (_ numberOfTries: Int) -> Bool

    /// How a connection reacts to a locked database.
    ///
    /// See <https://www.sqlite.org/c3ref/busy_handler.html>.
    public enum BusyMode: Sendable {
        /// Fail with `SQLITE_BUSY` at once.
        case immediateError
        /// Retry for up to this many seconds, then fail with `SQLITE_BUSY`.
        case timeout(TimeInterval)
        /// Ask the callback.
        case callback(BusyCallback)
    }

    private func setUpBusyMode() {
        switch configuration.busyMode {
        case .immediateError:
            break
        case .timeout(let seconds):
            // Clamped before the conversion, which would trap on a NaN,
            // negative or huge number of seconds.
            let milliseconds = seconds * 1000
            sqlite3_busy_timeout(handle, milliseconds >= Double(CInt.max) ? CInt.max : milliseconds > 0 ? CInt(milliseconds) : 0)
        case .callback(let callback):
            let box = Unmanaged.passRetained(BusyCallbackBox(callback))
            busyHandlerBox = box
            sqlite3_busy_handler(handle, { context, numberOfTries in
                let box = Unmanaged<BusyCallbackBox>.fromOpaque(context!).takeUnretainedValue()
                return box.callback(Int(numberOfTries)) ? 1 : 0
            }, box.toOpaque())
        }
    }
}

/// Holds a busy callback for SQLite's C context pointer.
final class BusyCallbackBox {
    let callback: Database.BusyCallback
    init(_ callback: @escaping Database.BusyCallback) { self.callback = callback }
}

/// Whether the current access of a connection was cancelled. `Sendable`
/// through its atomic: the cancellation handler sets it from another thread.
final class CancellationFlag: Sendable {
    private let value = Atomic<Bool>(false)

    var isCancelled: Bool {
        value.load(ordering: .relaxed)
    }

    func set(_ isCancelled: Bool) {
        value.store(isCancelled, ordering: .relaxed)
    }
}
