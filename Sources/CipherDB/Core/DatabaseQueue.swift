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

    /// Opens an in-memory database, for tests and previews. Each queue has
    /// its own database.
    public convenience init(configuration: Configuration = Configuration()) throws {
        try self.init(path: ":memory:", configuration: configuration)
    }

    /// Opens an in-memory database, which other queues in the same process
    /// can open with the same name, for as long as one of them is open.
    public convenience init(named name: String, configuration: Configuration = Configuration()) throws {
        try self.init(path: "file:\(name)?mode=memory&cache=shared", configuration: configuration)
    }

    public func close() throws {
        try writer.close()
    }

    public func interrupt() {
        writer.interrupt()
    }

    // MARK: - Reading

    public func read<T>(_ value: (Database) throws -> T) throws -> T {
        try writer.sync { db in try db.isolatedRead { try value(db) } }
    }

    public func read<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await writer.execute { db in try db.isolatedRead { try value(db) } }
    }

    public func asyncRead(_ value: @escaping @Sendable (Result<Database, Error>) -> Void) {
        writer.async { db in
            do {
                try db.checkIsOpen()
                try db.isolatedRead { value(.success(db)) }
            } catch {
                value(.failure(error))
            }
        }
    }

    public func unsafeRead<T>(_ value: (Database) throws -> T) throws -> T {
        try writer.sync(value)
    }

    public func unsafeRead<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await writer.execute(value)
    }

    public func unsafeReentrantRead<T>(_ value: (Database) throws -> T) throws -> T {
        try writer.reentrantSync(value)
    }

    // MARK: - Writing

    public func writeWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T {
        try writer.sync { db in try db.checkedWriteAccess { try updates(db) } }
    }

    public func writeWithoutTransaction<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T {
        try await writer.execute { db in try db.checkedWriteAccess { try updates(db) } }
    }

    /// On a queue, every write is a barrier: there are no concurrent reads.
    public func barrierWriteWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T {
        try writeWithoutTransaction(updates)
    }

    public func barrierWriteWithoutTransaction<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T {
        try await writeWithoutTransaction(updates)
    }

    public func asyncWriteWithoutTransaction(_ updates: @escaping @Sendable (Database) -> Void) {
        writer.async { db in
            updates(db)
            try? db.checkNoTransactionLeft()
        }
    }

    public func unsafeReentrantWrite<T>(_ updates: (Database) throws -> T) throws -> T {
        try writer.reentrantSync(updates)
    }

    /// Runs `updates` with the connection, outside of any transaction.
    ///
    /// ```swift
    /// try dbQueue.inDatabase { db in
    ///     try db.execute(sql: "PRAGMA user_version = 2")
    /// }
    /// ```
    public func inDatabase<T>(_ updates: (Database) throws -> T) throws -> T {
        try writeWithoutTransaction(updates)
    }
}

extension Database {
    /// A read access: one deferred transaction (a consistent view), with
    /// writes forbidden.
    func isolatedRead<T>(_ value: () throws -> T) throws -> T {
        try readOnly {
            if isInsideTransaction {
                return try value()
            }
            var result: T?
            try inTransaction(.deferred) {
                result = try value()
                // Nothing to commit: rolling back is cheaper and never fails
                // on a busy database.
                return .rollback
            }
            return result!
        }
    }

    /// A write access, which must not leave a transaction open.
    func checkedWriteAccess<T>(_ updates: () throws -> T) throws -> T {
        let result: T
        do {
            result = try updates()
        } catch {
            try? checkNoTransactionLeft()
            throw error
        }
        try checkNoTransactionLeft()
        return result
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
    }
}
