import CSQLCipher

extension Database {
    /// The kind of a transaction.
    ///
    /// See <https://www.sqlite.org/lang_transaction.html>.
    public enum TransactionKind: String, Sendable {
        case deferred = "DEFERRED"
        case immediate = "IMMEDIATE"
        case exclusive = "EXCLUSIVE"
    }

    /// How a transaction or savepoint ends.
    public enum TransactionCompletion: Sendable {
        case commit
        case rollback
    }

    /// Runs `operations` in a transaction. The transaction commits or rolls
    /// back as `operations` says; it rolls back if `operations` throws, and
    /// the error is rethrown.
    ///
    /// ```swift
    /// try db.inTransaction {
    ///     try db.execute(sql: "INSERT ...")
    ///     return .commit
    /// }
    /// ```
    ///
    /// When `kind` is nil, the transaction is DEFERRED if the access is
    /// read-only, and IMMEDIATE otherwise, so that two write transactions
    /// never overlap (an upgrade of a deferred transaction can fail with
    /// `SQLITE_BUSY` whatever the busy mode).
    ///
    /// Transactions do not nest: use ``inSavepoint(_:)`` inside a
    /// transaction.
    ///
    /// See <https://www.sqlite.org/lang_transaction.html>.
    public func inTransaction(
        _ kind: TransactionKind? = nil,
        _ operations: () throws -> TransactionCompletion) throws
    {
        try beginTransaction(kind)
        try runTransactionBlock(operations, commit: commit, rollback: rollback)
    }

    /// Runs `operations` in a savepoint, which can be nested in a
    /// transaction or in other savepoints. Outside of a transaction, it runs
    /// in a transaction (of the kind ``inTransaction(_:_:)`` picks).
    ///
    /// ```swift
    /// try db.inSavepoint {
    ///     try db.execute(sql: "INSERT ...")
    ///     return .rollback // undoes this savepoint only
    /// }
    /// ```
    ///
    /// See <https://www.sqlite.org/lang_savepoint.html>.
    public func inSavepoint(_ operations: () throws -> TransactionCompletion) throws {
        // A top-level savepoint would open a deferred transaction, and an
        // observer that vetoes its release would leave the connection
        // outside autocommit mode: open a real transaction instead.
        guard isInsideTransaction else {
            try inTransaction(nil, operations)
            return
        }
        // One name is enough: savepoints nest by name.
        try executeCached(sql: "SAVEPOINT grdb")
        try runTransactionBlock(
            operations,
            commit: { try executeCached(sql: "RELEASE SAVEPOINT grdb") },
            rollback: rollbackSavepoint)
    }

    /// Runs the body of a transaction or savepoint, then commits or rolls
    /// back. The first error is the one thrown: a failed rollback does not
    /// hide the error that caused it.
    private func runTransactionBlock(
        _ operations: () throws -> TransactionCompletion,
        commit: () throws -> Void,
        rollback: () throws -> Void) throws
    {
        let wasInsideTransactionBlock = isInsideTransactionBlock
        isInsideTransactionBlock = true
        defer { isInsideTransactionBlock = wasInsideTransactionBlock }

        var firstError: (any Error)?
        var needsRollback = true
        do {
            if try operations() == .commit {
                // SQLite may have rolled back by itself (INSERT OR
                // ROLLBACK, a full disk…): report SQLITE_ABORT rather than
                // "cannot commit - no transaction is active".
                try checkForAbortedTransaction()
                // Observers notified by the commit may run statements.
                isInsideTransactionBlock = wasInsideTransactionBlock
                needsRollback = false
                try commit()
            }
        } catch {
            firstError = error
            needsRollback = true
        }
        if needsRollback {
            do {
                try rollback()
            } catch {
                firstError = firstError ?? error
            }
        }
        if let firstError { throw firstError }
    }

    /// Throws `SQLITE_ABORT` if SQLite rolled back the transaction of the
    /// current ``inTransaction(_:_:)`` or ``inSavepoint(_:)`` block by
    /// itself: the statements that follow would otherwise run outside of
    /// any transaction.
    func checkForAbortedTransaction(sql: @autoclosure () -> String? = nil,
                                    arguments: @autoclosure () -> StatementArguments? = nil) throws
    {
        if isInsideTransactionBlock && sqlite3_get_autocommit(handle) != 0 {
            throw DatabaseError(
                resultCode: .SQLITE_ABORT,
                message: "Transaction was aborted",
                sql: sql(),
                arguments: arguments(),
                publicStatementArguments: configuration.publicStatementArguments)
        }
    }

    /// Begins a transaction. When `kind` is nil, the transaction is DEFERRED
    /// if the access is read-only, and IMMEDIATE otherwise.
    ///
    /// See <https://www.sqlite.org/lang_transaction.html>.
    public func beginTransaction(_ kind: TransactionKind? = nil) throws {
        // SQLite refuses IMMEDIATE and EXCLUSIVE on a read-only connection.
        let kind = kind ?? (isReadOnly ? .deferred : .immediate)
        switch kind {
        case .deferred: try executeCached(sql: "BEGIN DEFERRED TRANSACTION")
        case .immediate: try executeCached(sql: "BEGIN IMMEDIATE TRANSACTION")
        case .exclusive: try executeCached(sql: "BEGIN EXCLUSIVE TRANSACTION")
        }
    }

    /// Commits the current transaction.
    public func commit() throws {
        try executeCached(sql: "COMMIT TRANSACTION")
    }

    /// Rolls back the current transaction. Does nothing if SQLite has
    /// already rolled it back by itself (after an interrupt, a full disk…).
    public func rollback() throws {
        // A rollback may undo schema changes.
        invalidateSchemaCache()
        guard isInsideTransaction else { return }
        try ignoringCancellation { try executeCached(sql: "ROLLBACK TRANSACTION") }
    }

    /// Runs `body` even if the current access was cancelled: rollbacks must
    /// always run, or a cancelled write would leave its transaction open,
    /// and the end of the access would stop the program; and the fetches
    /// of observations after a commit, which belong to no task.
    ///
    /// A cancellation that interrupts `body` while it runs is put off, and
    /// `body` runs again, once (the cancellation of an access interrupts
    /// it once): it may as well have come after `body`, as GRDB does.
    func ignoringCancellation<T>(_ body: () throws -> T) throws -> T {
        var isCancelled = cancellation.isCancelled
        cancellation.set(false)
        defer { if isCancelled { cancellation.set(true) } }
        do {
            return try body()
        } catch let error where Self.isInterruption(error) {
            isCancelled = isCancelled || cancellation.isCancelled
            cancellation.set(false)
            // SQLite keeps a connection interrupted until none of its
            // statements runs.
            resetAllStatements()
            return try body()
        }
    }

    private static func isInterruption(_ error: any Error) -> Bool {
        if error is CancellationError { return true }
        guard let error = error as? DatabaseError else { return false }
        return error.resultCode == .SQLITE_INTERRUPT || error.resultCode == .SQLITE_ABORT
    }

    /// Resets every prepared statement of the connection.
    private func resetAllStatements() {
        guard let sqliteConnection else { return }
        var statement = sqlite3_next_stmt(sqliteConnection, nil)
        while let current = statement {
            sqlite3_reset(current)
            statement = sqlite3_next_stmt(sqliteConnection, current)
        }
    }

    /// Rolls back to the savepoint, and releases it: a rollback alone
    /// leaves it on SQLite's savepoint stack.
    private func rollbackSavepoint() throws {
        invalidateSchemaCache()
        // SQLite may have rolled back the whole transaction by itself.
        guard isInsideTransaction else { return }
        try ignoringCancellation {
            try executeCached(sql: "ROLLBACK TRANSACTION TO SAVEPOINT grdb")
            try executeCached(sql: "RELEASE SAVEPOINT grdb")
        }
    }

    // MARK: - Read-only accesses

    /// Runs `value` with writes forbidden: statements that write throw
    /// `SQLITE_READONLY`. Calls nest.
    ///
    /// ```swift
    /// try dbQueue.write { db in
    ///     try db.readOnly { try Player.fetchCount(db) }
    /// }
    /// ```
    ///
    /// See <https://www.sqlite.org/pragma.html#pragma_query_only>.
    public func readOnly<T>(_ value: () throws -> T) throws -> T {
        try beginReadOnly()
        let result: T
        do {
            result = try value()
        } catch {
            try? endReadOnly()
            throw error
        }
        try endReadOnly()
        return result
    }

    /// Whether writes are forbidden: the connection is read-only, or a
    /// ``readOnly(_:)`` access runs.
    var isReadOnly: Bool {
        readOnlyDepth > 0 || configuration.readonly
    }

    /// Enters a read-only access; balanced by `endReadOnly()`.
    func beginReadOnly() throws {
        if configuration.readonly { return }
        if readOnlyDepth == 0 {
            try executeCached(sql: "PRAGMA query_only = 1")
        }
        readOnlyDepth += 1
    }

    /// Leaves a read-only access.
    func endReadOnly() throws {
        if configuration.readonly { return }
        readOnlyDepth -= 1
        if readOnlyDepth == 0 {
            // Even for a cancelled access: the connection would refuse
            // every later write.
            try ignoringCancellation {
                try executeCached(sql: "PRAGMA query_only = 0")
            }
        }
    }

    /// Runs `value` in a transaction, or in the current one: the isolation
    /// of reads and of ``DatabaseWriter/write(_:)``. A read-only access
    /// forbids writes from the start, so that its commit notifies no
    /// observer.
    func isolated<T>(readOnly: Bool = false, _ value: () throws -> T) throws -> T {
        if isInsideTransaction {
            return readOnly ? try self.readOnly(value) : try value()
        }
        var result: T?
        if readOnly {
            try self.readOnly {
                try inSavepoint {
                    result = try value()
                    return .commit
                }
            }
        } else {
            try inSavepoint {
                result = try value()
                return .commit
            }
        }
        return result!
    }
}

extension Database {
    /// Runs `value` in a read transaction whose snapshot starts before
    /// `value` runs: the isolation of the reads of a pool, which see none
    /// of the commits that follow the start of the read.
    func isolatedFromLaterWrites<T>(_ value: () throws -> T) throws -> T {
        try isolated {
            try startSnapshot()
            return try value()
        }
    }
}

// MARK: - Statement events

extension Database {
    /// Called before each statement runs. Throws `CancellationError` if
    /// the task of the access was cancelled, and `SQLITE_ABORT` if SQLite
    /// rolled back the transaction of the current transaction block.
    @inline(__always)
    func statementWillExecute(_ statement: Statement) throws {
        // Here, so that every way to run a statement checks it.
        try checkNotCancelled(statement)
        if isInsideTransactionBlock {
            try checkForAbortedTransaction(sql: statement.sql, arguments: statement.arguments)
        }
        // SQLite may prepare the statement again when it runs.
        isPreparingDrop = false
        if regionRecorder != nil {
            regionRecorder!.formUnion(statement.databaseRegion)
        }
        if observationBroker.hasObservers {
            observationBroker.statementWillExecute(statement)
        }
    }

    /// Called after each statement ran (or failed). Throws the error of
    /// an observer that cancelled the commit.
    @inline(__always)
    func statementDidExecute(_ statement: Statement, failed: Bool) throws {
        // Only these statements begin or end a transaction: those that
        // say so (BEGIN, SAVEPOINT, COMMIT…), and a failure that rolls it
        // back. Other statements pay no call to SQLite here.
        if failed || statement.transactionEffect != nil {
            updateTransactionDate()
        }
        try observationBroker.statementDidExecute(statement, failed: failed)
    }

    /// Adds a region to the one that a ``ValueObservation`` tracks, as if
    /// a statement had read it. Does nothing outside of an observation's
    /// fetch, and in an observation of constant regions.
    ///
    /// ```swift
    /// let observation = ValueObservation.tracking { db in
    ///     try db.registerAccess(to: Table("team"))
    ///     return try Player.fetchAll(db)
    /// }
    /// ```
    public func registerAccess(to region: @autoclosure () -> some DatabaseRegionConvertible) throws {
        if regionRecorder != nil {
            regionRecorder!.formUnion(try region().databaseRegion(self))
        }
    }

    /// Runs `body`, and returns the region that its statements read.
    func recordingSelectedRegion<T>(_ body: () throws -> T) rethrows -> (T, DatabaseRegion) {
        let previous = regionRecorder
        regionRecorder = DatabaseRegion()
        defer { regionRecorder = previous.map { $0.union(regionRecorder ?? DatabaseRegion()) } }
        let value = try body()
        return (value, regionRecorder ?? DatabaseRegion())
    }
}
