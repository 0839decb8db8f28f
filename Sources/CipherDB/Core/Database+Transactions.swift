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
    /// See <https://www.sqlite.org/lang_transaction.html>.
    public func inTransaction(
        _ kind: TransactionKind? = nil,
        _ operations: () throws -> TransactionCompletion) throws
    {
        try beginTransaction(kind)
        let completion: TransactionCompletion
        do {
            completion = try operations()
        } catch {
            try rollbackAfterError()
            throw error
        }
        switch completion {
        case .commit:
            do {
                try commit()
            } catch {
                try rollbackAfterError()
                throw error
            }
        case .rollback:
            try rollback()
        }
    }

    /// Runs `operations` in a savepoint, which can be nested in a
    /// transaction or in other savepoints. Outside of a transaction, it runs
    /// in a transaction.
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
        guard isInsideTransaction else {
            try inTransaction(.deferred, operations)
            return
        }
        try executeCached(sql: "SAVEPOINT cipherdb")
        let completion: TransactionCompletion
        do {
            completion = try operations()
        } catch {
            try rollbackSavepointAfterError()
            throw error
        }
        switch completion {
        case .commit:
            try executeCached(sql: "RELEASE SAVEPOINT cipherdb")
        case .rollback:
            try rollbackSavepoint()
        }
    }

    /// Begins a transaction.
    public func beginTransaction(_ kind: TransactionKind? = nil) throws {
        switch kind ?? configuration.defaultTransactionKind {
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
    /// always run, or a cancelled write would leave its transaction open.
    private func ignoringCancellation<T>(_ body: () throws -> T) throws -> T {
        let wasCancelled = cancellation.isCancelled
        cancellation.set(false)
        defer { if wasCancelled { cancellation.set(true) } }
        return try body()
    }

    /// Rolls back after an error, keeping the original error as the one
    /// reported: a failure to roll back only matters if the transaction is
    /// still open.
    private func rollbackAfterError() throws {
        do {
            try rollback()
        } catch {
            if isInsideTransaction { throw error }
        }
    }

    private func rollbackSavepointAfterError() throws {
        guard isInsideTransaction else { return }
        do {
            try rollbackSavepoint()
        } catch {
            if isInsideTransaction { throw error }
        }
    }

    private func rollbackSavepoint() throws {
        invalidateSchemaCache()
        try ignoringCancellation {
            try executeCached(sql: "ROLLBACK TRANSACTION TO SAVEPOINT cipherdb")
            try executeCached(sql: "RELEASE SAVEPOINT cipherdb")
        }
    }

    /// Runs `value` with writes forbidden: statements that write throw
    /// `SQLITE_READONLY`.
    ///
    /// See <https://www.sqlite.org/pragma.html#pragma_query_only>.
    public func readOnly<T>(_ value: () throws -> T) throws -> T {
        if configuration.readonly || isReadOnlyAccess {
            return try value()
        }
        try executeCached(sql: "PRAGMA query_only = 1")
        isReadOnlyAccess = true
        defer {
            isReadOnlyAccess = false
            try? executeCached(sql: "PRAGMA query_only = 0")
        }
        return try value()
    }
}

// MARK: - Statement events

extension Database {
    /// Called before each statement runs.
    @inline(__always)
    func statementWillExecute(_ statement: Statement) {
        // SQLite may prepare the statement again when it runs.
        isPreparingDrop = false
        if regionRecorder != nil {
            regionRecorder!.formUnion(statement.selectedRegion)
        }
        if observationBroker.hasObservers {
            observationBroker.statementWillExecute(statement)
        }
    }

    /// Called after each statement ran (or failed).
    @inline(__always)
    func statementDidExecute() {
        observationBroker.statementDidExecute()
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
