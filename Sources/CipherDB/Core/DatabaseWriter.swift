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
    func writeWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T

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

    /// Schedules `updates` with the writer connection, outside of any
    /// transaction, and returns at once.
    func asyncWriteWithoutTransaction(_ updates: @escaping @Sendable (Database) -> Void)

    /// Runs `updates` with the writer connection, even from inside another
    /// access of the same writer.
    func unsafeReentrantWrite<T>(_ updates: (Database) throws -> T) throws -> T
}

extension DatabaseWriter {
    /// Runs `updates` in one immediate transaction: it commits if `updates`
    /// returns, and rolls back if it throws.
    ///
    /// ```swift
    /// let id = try writer.write { db in
    ///     try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["Arthur"])
    ///     return db.lastInsertedRowID
    /// }
    /// ```
    public func write<T>(_ updates: (Database) throws -> T) throws -> T {
        try writeWithoutTransaction { db in
            try db.inImmediateTransaction { try updates(db) }
        }
    }

    /// Runs `updates` in one immediate transaction, off the cooperative
    /// thread pool. Task cancellation interrupts it and rolls it back.
    public func write<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T {
        try await writeWithoutTransaction { db in
            try db.inImmediateTransaction { try updates(db) }
        }
    }

    /// Schedules `updates` in one transaction, and returns at once.
    /// `completion` receives the database and the result.
    public func asyncWrite<T>(
        _ updates: @escaping @Sendable (Database) throws -> T,
        completion: @escaping @Sendable (Database, Result<T, Error>) -> Void)
    {
        asyncWriteWithoutTransaction { db in
            let result = Result { try db.inImmediateTransaction { try updates(db) } }
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
}

extension Database {
    /// Runs `updates` in an immediate transaction, and returns its result.
    func inImmediateTransaction<T>(_ updates: () throws -> T) throws -> T {
        var result: T?
        try inTransaction(.immediate) {
            result = try updates()
            return .commit
        }
        return result!
    }

    /// Checks that a write access left no transaction open, and rolls back
    /// the one it left.
    func checkNoTransactionLeft() throws {
        guard isInsideTransaction, !configuration.allowsUnsafeTransactions else { return }
        try? rollback()
        throw DatabaseError(
            resultCode: .SQLITE_MISUSE,
            message: "a transaction was left open at the end of a database access, and was rolled back: commit or roll it back within the access, or use write { }")
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

extension String {
    /// The string as an SQL identifier in double quotes: `"my table"`.
    public var quotedDatabaseIdentifier: String {
        "\"" + replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
