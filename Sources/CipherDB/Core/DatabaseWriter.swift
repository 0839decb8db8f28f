import Foundation

/// A type that writes a database: ``DatabaseQueue`` and ``DatabasePool``.
///
/// ```swift
/// try writer.write { db in
///     try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["Arthur"])
/// }
/// try await writer.write { db in
///     try db.execute(sql: "DELETE FROM player")
/// }
/// ```
public protocol DatabaseWriter: DatabaseReader {
    /// Runs `updates` with the writer connection, outside of any
    /// transaction.
    ///
    /// `updates` must not leave a transaction open (unless
    /// ``Configuration/allowsUnsafeTransactions`` is true): that is a
    /// programmer error, which stops the program.
    func writeWithoutTransaction<T>(_ updates: (Database) throws -> T) rethrows -> T

    /// Runs `updates` with the writer connection, outside of any
    /// transaction, off the cooperative thread pool. Task cancellation
    /// interrupts it.
    func writeWithoutTransaction<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T

    /// Runs `updates` with the writer connection once every read has
    /// finished, while no new read can start.
    func barrierWriteWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T

    /// Like ``barrierWriteWithoutTransaction(_:)-(Database)->T``, off the
    /// cooperative thread pool.
    func barrierWriteWithoutTransaction<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T

    /// Schedules `updates` with the writer connection once every read has
    /// finished, while no new read can start, and returns at once.
    func asyncBarrierWriteWithoutTransaction(_ updates: @escaping @Sendable (Result<Database, Error>) -> Void)

    /// Schedules `updates` with the writer connection, outside of any
    /// transaction, and returns at once.
    func asyncWriteWithoutTransaction(_ updates: @escaping @Sendable (Database) -> Void)

    /// Runs `updates` with the writer connection, even from inside another
    /// access of the same writer.
    func unsafeReentrantWrite<T>(_ updates: (Database) throws -> T) rethrows -> T

    /// Reads the database as the writer last committed it, concurrently
    /// with the writes that follow. Call it from a write access, outside of
    /// any transaction (the program stops otherwise).
    ///
    /// A ``DatabasePool`` reads with a reader, and returns once the read
    /// is isolated from later writes; a ``DatabaseQueue`` reads at once,
    /// with the writer connection.
    ///
    /// ```swift
    /// try writer.writeWithoutTransaction { db in
    ///     try Player.deleteAll(db)
    ///     writer.spawnConcurrentRead { dbResult in
    ///         // Zero, whatever the writer does next.
    ///         let count = try? Player.fetchCount(dbResult.get())
    ///     }
    ///     try Player(name: "Arthur", score: 100).insert(db)
    /// }
    /// ```
    func spawnConcurrentRead(_ value: @escaping @Sendable (Result<Database, Error>) -> Void)
}

extension DatabaseWriter {
    /// Runs `updates` in one transaction (IMMEDIATE, unless the database is
    /// read-only): it commits if `updates` returns, and rolls back if it
    /// throws.
    ///
    /// ```swift
    /// let id = try writer.write { db in
    ///     try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["Arthur"])
    ///     return db.lastInsertedRowID
    /// }
    /// ```
    public func write<T>(_ updates: (Database) throws -> T) throws -> T {
        try writeWithoutTransaction { db in
            try db.inTransactionReturning { try updates(db) }
        }
    }

    /// Runs `updates` in one transaction, off the cooperative thread pool.
    /// Task cancellation interrupts it and rolls it back.
    public func write<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T {
        try await writeWithoutTransaction { db in
            try db.inTransactionReturning { try updates(db) }
        }
    }

    /// Schedules `updates` in one transaction, and returns at once.
    /// `completion` receives the database and the result.
    public func asyncWrite<T>(
        _ updates: @escaping @Sendable (Database) throws -> T,
        completion: @escaping @Sendable (Database, Result<T, Error>) -> Void)
    {
        asyncWriteWithoutTransaction { db in
            let result = Result { try db.inTransactionReturning { try updates(db) } }
            completion(db, result)
        }
    }

    /// Deletes all tables, views, triggers and indexes.
    public func erase() throws {
        try barrierWriteWithoutTransaction { try $0.erase() }
    }

    /// Rebuilds the database file, repacking it into a minimal amount of
    /// disk space.
    ///
    /// See <https://www.sqlite.org/lang_vacuum.html>.
    public func vacuum() throws {
        try writeWithoutTransaction { try $0.execute(sql: "VACUUM") }
    }

    /// Deletes all tables, views, triggers and indexes, off the
    /// cooperative thread pool.
    public func erase() async throws {
        try await barrierWriteWithoutTransaction { try $0.erase() }
    }

    /// Rebuilds the database file, off the cooperative thread pool.
    ///
    /// See <https://www.sqlite.org/lang_vacuum.html>.
    public func vacuum() async throws {
        try await writeWithoutTransaction { try $0.execute(sql: "VACUUM") }
    }
}

extension Database {
    /// Runs `updates` in a transaction that commits, and returns its result.
    func inTransactionReturning<T>(_ updates: () throws -> T) throws -> T {
        var result: T?
        try inTransaction {
            result = try updates()
            return .commit
        }
        return result!
    }

    /// Deletes every schema object.
    func erase() throws {
        try execute(sql: "PRAGMA foreign_keys = OFF")
        defer { try? execute(sql: configuration.foreignKeysEnabled ? "PRAGMA foreign_keys = ON" : "PRAGMA foreign_keys = OFF") }
        try inTransaction(.immediate) {
            let objects = try Row.fetchAll(self, sql: """
                SELECT type, name FROM sqlite_master
                WHERE name NOT LIKE 'sqlite_%' AND type IN ('table', 'view', 'trigger')
                """)
            for object in objects {
                let type: String = object["type"]
                let name: String = object["name"]
                try execute(sql: "DROP \(type.uppercased()) IF EXISTS \(name.quotedDatabaseIdentifier)")
            }
            if try tableExists("sqlite_sequence") {
                try execute(sql: "DELETE FROM sqlite_sequence")
            }
            return .commit
        }
        clearStatementCache()
    }
}
