import Foundation

/// A type that reads a database: ``DatabaseQueue`` and ``DatabasePool``.
///
/// ```swift
/// let count = try reader.read { db in
///     try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")!
/// }
/// let names = try await reader.read { db in
///     try String.fetchAll(db, sql: "SELECT name FROM player")
/// }
/// ```
public protocol DatabaseReader: AnyObject, Sendable {
    /// The configuration of the connections.
    var configuration: Configuration { get }

    /// The path of the database.
    var path: String { get }

    /// Closes the connections. Accesses then throw `SQLITE_MISUSE`.
    func close() throws

    /// Interrupts the statements that run now: they throw `SQLITE_INTERRUPT`.
    func interrupt()

    /// Runs `value` in a read-only transaction, which sees a snapshot of
    /// the database that concurrent writes do not alter.
    func read<T>(_ value: (Database) throws -> T) throws -> T

    /// Runs `value` in a read-only transaction, off the cooperative thread
    /// pool. Task cancellation interrupts it.
    func read<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T

    /// Schedules `value` in a read-only transaction, and returns at once.
    func asyncRead(_ value: @escaping @Sendable (Result<Database, Error>) -> Void)

    /// Runs `value` with a connection, without transaction: consecutive
    /// fetches may see different states of the database.
    func unsafeRead<T>(_ value: (Database) throws -> T) throws -> T

    /// Runs `value` with a connection, without transaction, off the
    /// cooperative thread pool.
    func unsafeRead<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T

    /// Schedules `value` with a connection, without transaction, and
    /// returns at once.
    func asyncUnsafeRead(_ value: @escaping @Sendable (Result<Database, Error>) -> Void)

    /// Like ``unsafeRead(_:)-(Database)->T``, but may be called from
    /// inside another access of the same reader.
    func unsafeReentrantRead<T>(_ value: (Database) throws -> T) throws -> T
}

// MARK: - Backup

extension DatabaseReader {
    /// Copies this database into another, page by page, with SQLite's
    /// online backup: the copy is a consistent snapshot even while writes
    /// happen.
    ///
    /// ```swift
    /// try source.backup(to: destination) // destination keyed: stays encrypted
    /// ```
    ///
    /// The copy is encrypted with the key of the destination. SQLCipher
    /// 3.4.1 writes an encrypted source into a destination that has no key
    /// as **plaintext**: this method refuses that, unless
    /// `allowsPlaintextDestination` is true.
    ///
    /// - parameters:
    ///   - pagesPerStep: the number of pages copied per step; -1 copies
    ///     everything in one step.
    ///   - allowsPlaintextDestination: whether an encrypted database may be
    ///     copied into an unencrypted one.
    ///   - progress: called after each step; throwing aborts the backup.
    ///
    /// See <https://www.sqlite.org/backup.html>.
    public func backup(
        to writer: some DatabaseWriter,
        pagesPerStep: CInt = -1,
        allowsPlaintextDestination: Bool = false,
        progress: ((DatabaseBackupProgress) throws -> Void)? = nil) throws
    {
        try writer.barrierWriteWithoutTransaction { destination in
            try unsafeReentrantRead { source in
                try source.backup(
                    to: destination,
                    pagesPerStep: pagesPerStep,
                    allowsPlaintextDestination: allowsPlaintextDestination,
                    progress: progress)
            }
        }
    }
}
