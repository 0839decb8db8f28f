import Foundation

/// A database connection that serializes every access: the simplest way to
/// use a database.
///
/// ```swift
/// var config = Configuration()
/// config.prepareDatabase { db in try db.usePassphrase("secret") }
/// let dbQueue = try DatabaseQueue(path: "/path/to/db.sqlite", configuration: config)
/// try dbQueue.write { db in
///     try db.execute(sql: "CREATE TABLE IF NOT EXISTS player (id INTEGER PRIMARY KEY, name TEXT)")
/// }
/// ```
///
/// Reads and writes wait for each other. For concurrent reads, use a
/// ``DatabasePool``.
public final class DatabaseQueue: DatabaseWriter {
    private let writer: SerializedDatabase

    public let configuration: Configuration
    public var path: String { writer.path }

    /// Opens a database file, creating it if needed.
    ///
    /// Throws `SQLITE_NOTADB` when the key given by `prepareDatabase` does
    /// not open the file.
    public init(path: String, configuration: Configuration = Configuration()) throws {
        self.configuration = configuration
        writer = try SerializedDatabase(
            path: path, configuration: configuration,
            description: configuration.label ?? "CipherDB.DatabaseQueue")
        if configuration.journalMode == .wal && !configuration.readonly {
            try writer.sync { try $0.setUpWALMode() }
        }
    }

    /// Opens an in-memory database, for tests and previews.
    ///
    /// Without a name, each queue has its own database. With a name, other
    /// queues of the process open the same database with the same name,
    /// for as long as one of them is open.
    ///
    /// ```swift
    /// let dbQueue = try DatabaseQueue()
    /// let shared = try DatabaseQueue(named: "scratch")
    /// ```
    ///
    /// See <https://www.sqlite.org/inmemorydb.html>.
    public convenience init(named name: String? = nil, configuration: Configuration = Configuration()) throws {
        if let name {
            try self.init(path: "file:\(name)?mode=memory&cache=shared", configuration: configuration)
        } else {
            try self.init(path: ":memory:", configuration: configuration)
        }
    }

    public func close() throws {
        try writer.close()
    }

    public func interrupt() {
        writer.interrupt()
    }

    /// Frees as much memory as possible: the caches of the connection
    /// and the memory SQLite can release.
    public func releaseMemory() {
        writer.sync { $0.releaseMemory() }
    }

    // MARK: - Reading

    public func read<T>(_ value: (Database) throws -> T) throws -> T {
        try writer.sync { db in try db.isolated(readOnly: true) { try value(db) } }
    }

    public func read<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await writer.execute { db in try db.isolated(readOnly: true) { try value(db) } }
    }

    public func asyncRead(_ value: @escaping @Sendable (Result<Database, Error>) -> Void) {
        writer.async { db in db.withReadOnlyDeferredTransaction(value) }
    }

    public func unsafeRead<T>(_ value: (Database) throws -> T) rethrows -> T {
        try writer.sync(value)
    }

    public func unsafeRead<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await writer.execute(value)
    }

    public func asyncUnsafeRead(_ value: @escaping @Sendable (Result<Database, Error>) -> Void) {
        writer.async { value(.success($0)) }
    }

    public func unsafeReentrantRead<T>(_ value: (Database) throws -> T) rethrows -> T {
        try writer.reentrantSync(value)
    }

    // MARK: - Writing

    /// Runs `updates` in a transaction. The transaction commits or rolls
    /// back as `updates` says; it rolls back if `updates` throws, and the
    /// error is rethrown.
    ///
    /// ```swift
    /// try dbQueue.inTransaction { db in
    ///     try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["Arthur"])
    ///     return .commit
    /// }
    /// ```
    ///
    /// When `kind` is nil, the transaction is DEFERRED on a read-only
    /// connection, and IMMEDIATE otherwise.
    ///
    /// See <https://www.sqlite.org/lang_transaction.html>.
    public func inTransaction(
        _ kind: Database.TransactionKind? = nil,
        _ updates: (Database) throws -> Database.TransactionCompletion) throws
    {
        try writer.sync { db in try db.inTransaction(kind) { try updates(db) } }
    }

    public func writeWithoutTransaction<T>(_ updates: (Database) throws -> T) rethrows -> T {
        try writer.sync(updates)
    }

    public func writeWithoutTransaction<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T {
        try await writer.execute(updates)
    }

    /// On a queue, every write is a barrier: there are no concurrent reads.
    public func barrierWriteWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T {
        try writer.sync(updates)
    }

    public func barrierWriteWithoutTransaction<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T {
        try await writer.execute(updates)
    }

    public func asyncBarrierWriteWithoutTransaction(_ updates: @escaping @Sendable (Result<Database, Error>) -> Void) {
        writer.async { updates(.success($0)) }
    }

    public func asyncWriteWithoutTransaction(_ updates: @escaping @Sendable (Database) -> Void) {
        writer.async(updates)
    }

    public func unsafeReentrantWrite<T>(_ updates: (Database) throws -> T) rethrows -> T {
        try writer.reentrantSync(updates)
    }

    /// Reads at once, with the connection of the current write access:
    /// the read sees what the writer committed last.
    public func spawnConcurrentRead(_ value: @escaping @Sendable (Result<Database, Error>) -> Void) {
        writer.preconditionConcurrentReadIsolation()
        writer.reentrantSync { db in db.withReadOnlyDeferredTransaction(value) }
    }

    /// Runs `updates` with the connection, outside of any transaction.
    ///
    /// ```swift
    /// try dbQueue.inDatabase { db in
    ///     try db.execute(sql: "PRAGMA user_version = 2")
    /// }
    /// ```
    public func inDatabase<T>(_ updates: (Database) throws -> T) rethrows -> T {
        try writer.sync(updates)
    }
}

extension Database {
    /// The body of `asyncRead`: `value` runs in a deferred transaction,
    /// with writes forbidden, and the transaction ends when it returns.
    func withReadOnlyDeferredTransaction(_ value: (Result<Database, Error>) -> Void) {
        do {
            // Read-only before the transaction begins, so that its commit
            // notifies no transaction observer.
            try beginReadOnly()
        } catch {
            value(.failure(error))
            return
        }
        defer { try? endReadOnly() }
        withDeferredTransaction(value)
    }

    /// Runs `value` in a deferred transaction whose snapshot starts
    /// before `value` runs. The transaction ends when it returns (with a
    /// rollback if the commit fails, after a cancellation for example).
    func withDeferredTransaction(_ value: (Result<Database, Error>) -> Void) {
        do {
            try beginTransaction(.deferred)
        } catch {
            value(.failure(error))
            return
        }
        do {
            try startSnapshot()
        } catch {
            try? rollback()
            value(.failure(error))
            return
        }
        value(.success(self))
        do {
            try commit()
        } catch {
            try? rollback()
        }
    }

    /// Switches to WAL mode, which lets readers run while a writer commits.
    ///
    /// See <https://www.sqlite.org/wal.html>.
    func setUpWALMode() throws {
        let journalMode = try String.fetchOne(self, sql: "PRAGMA journal_mode = WAL")
        guard journalMode?.lowercased() == "wal" else {
            throw DatabaseError(message: "could not activate WAL mode at \(path)")
        }
        // Durable at each checkpoint, and much faster: the usual choice in
        // WAL mode. See <https://www.sqlite.org/pragma.html#pragma_synchronous>.
        try execute(sql: "PRAGMA synchronous = NORMAL")
        // The empty WAL of a new database makes checkpoints report no log
        // (-1) and readers of a new file risk SQLITE_CANTOPEN: write one
        // transaction into it, as GRDB does. Only for a new database, so
        // that opening an existing one never changes it.
        let walSize = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
        if walSize == 0, try Int.fetchOne(self, sql: "SELECT COUNT(*) FROM sqlite_master") == 0 {
            try inSavepoint {
                try execute(sql: "CREATE TABLE cipherdb_wal_start (id INTEGER PRIMARY KEY); DROP TABLE cipherdb_wal_start")
                return .commit
            }
        }
    }
}
