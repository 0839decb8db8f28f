import Foundation
import Synchronization

/// A database in WAL mode, with one writer connection and up to
/// ``Configuration/maximumReaderCount`` reader connections opened on
/// demand: reads run concurrently with each other and with writes.
///
/// ```swift
/// let dbPool = try DatabasePool(path: "/path/to/db.sqlite", configuration: config)
/// let count = try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")! }
/// ```
///
/// Each read runs in a transaction that sees a consistent snapshot of the
/// database, even while the writer commits.
///
/// See <https://www.sqlite.org/wal.html>.
public final class DatabasePool: DatabaseWriter {
    private let writer: SerializedDatabase
    private let readerPool: Pool<SerializedDatabase>
    /// Numbers the snapshots of this pool in their descriptions, from 1.
    let snapshotCount = Atomic<Int>(0)

    public let configuration: Configuration
    public var path: String { writer.path }

    /// Opens a database file in WAL mode, creating it if needed.
    ///
    /// Throws `SQLITE_NOTADB` when the key given by `prepareDatabase` does
    /// not open the file.
    public init(path: String, configuration: Configuration = Configuration()) throws {
        self.configuration = configuration
        let label = configuration.label ?? "CipherDB.DatabasePool"
        writer = try SerializedDatabase(path: path, configuration: configuration, description: "\(label).writer")
        if !configuration.readonly {
            try writer.sync { db in try db.setUpWALMode() }
        }
        var readerConfiguration = configuration
        readerConfiguration.readonly = true
        readerPool = Pool(
            maximumCount: configuration.maximumReaderCount,
            keepsElements: configuration.persistentReadOnlyConnections)
        { [readerConfiguration] index in
            try SerializedDatabase(path: path, configuration: readerConfiguration, description: "\(label).reader.\(index)")
        }
    }

    /// Closes the readers, then the writer. Later accesses throw
    /// `SQLITE_MISUSE`; closing again does nothing.
    ///
    /// The writer closes last because SQLite moves the content of the WAL
    /// into the database file, and deletes the `-wal` and `-shm` files,
    /// only when the last connection to close can write: a copy of the
    /// database file alone then holds everything. (GRDB closes the writer
    /// first, and leaves the WAL behind.)
    ///
    /// If the writer can not be closed (a statement is still alive), the
    /// pool remains usable: reads open new readers.
    ///
    /// See <https://www.sqlite.org/wal.html#the_wal_file>.
    public func close() throws {
        try readerPool.barrier {
            for reader in readerPool.removeAll() {
                try reader.close()
            }
            try writer.close()
            readerPool.close()
        }
    }

    public func interrupt() {
        writer.interrupt()
        readerPool.allElements.forEach { $0.interrupt() }
    }

    /// Frees as much memory as possible, on the writer and on the idle
    /// readers (by closing them: later reads open new ones).
    public func releaseMemory() {
        writer.sync { $0.releaseMemory() }
        readerPool.removeAll()
    }

    /// Frees as much memory as possible, without waiting: the idle readers
    /// close now, the busy ones when their read ends, and the writer
    /// releases its memory after its current access.
    public func releaseMemoryEventually() {
        readerPool.removeAll()
        writer.async { $0.releaseMemory() }
    }

    /// Closes the idle readers, and the busy ones when their read ends:
    /// later reads open new connections, which run `prepareDatabase` again
    /// (after a passphrase change, for example).
    public func invalidateReadOnlyConnections() {
        readerPool.removeAll()
    }

    // MARK: - Reading

    private func withReader<T>(_ body: (SerializedDatabase) throws -> T) throws -> T {
        let item = try readerPool.get()
        defer { readerPool.release(item) }
        return try body(item.element)
    }

    /// Takes a reader without blocking a thread of the cooperative pool.
    private func withReader<T: Sendable>(_ body: (SerializedDatabase) async throws -> T) async throws -> T {
        let item = try await readerPool.get()
        defer { readerPool.release(item) }
        return try await body(item.element)
    }

    public func read<T>(_ value: (Database) throws -> T) throws -> T {
        try withReader { reader in
            try reader.sync { db in try db.isolatedFromLaterWrites { try value(db) } }
        }
    }

    public func read<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await withReader { reader in
            try await reader.execute { db in try db.isolatedFromLaterWrites { try value(db) } }
        }
    }

    public func asyncRead(_ value: @escaping @Sendable (Result<Database, Error>) -> Void) {
        withAsyncReader { db in db.withDeferredTransaction(value) } failure: { value(.failure($0)) }
    }

    public func unsafeRead<T>(_ value: (Database) throws -> T) throws -> T {
        try withReader { reader in try reader.sync(value) }
    }

    public func unsafeRead<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await withReader { reader in try await reader.execute(value) }
    }

    public func asyncUnsafeRead(_ value: @escaping @Sendable (Result<Database, Error>) -> Void) {
        withAsyncReader { db in value(.success(db)) } failure: { value(.failure($0)) }
    }

    /// Runs `body` later on a reader, or `failure` if no reader can be had
    /// (the pool is closed, or a connection fails to open).
    private func withAsyncReader(
        _ body: @escaping @Sendable (Database) -> Void,
        failure: @escaping @Sendable (any Error) -> Void)
    {
        readerPool.request { result in
            switch result {
            case .success(let item):
                item.element.async { db in
                    defer { self.readerPool.release(item) }
                    body(db)
                }
            case .failure(let error):
                failure(error)
            }
        }
    }

    /// Reads with a reader the database as the writer last committed it,
    /// concurrently with the writes that follow: returns once the read
    /// transaction of the reader has started its snapshot, and `value` then
    /// runs on the reader. Call it from a write access, outside of any
    /// transaction (the program stops otherwise).
    ///
    /// ```swift
    /// try dbPool.writeWithoutTransaction { db in
    ///     try Player.deleteAll(db)
    ///     dbPool.asyncConcurrentRead { dbResult in
    ///         // Zero, whatever the writer does next.
    ///         let count = try? Player.fetchCount(dbResult.get())
    ///     }
    ///     try Player(name: "Arthur", score: 100).insert(db)
    /// }
    /// ```
    public func asyncConcurrentRead(_ value: @escaping @Sendable (Result<Database, Error>) -> Void) {
        writer.preconditionConcurrentReadIsolation()
        let item: Pool<SerializedDatabase>.Item
        do {
            item = try readerPool.get()
        } catch {
            value(.failure(error))
            return
        }
        // The writer waits until the reader's snapshot has started: no
        // write of the writer can come first.
        let isolation = DispatchSemaphore(value: 0)
        item.element.async { db in
            defer { self.readerPool.release(item) }
            db.withDeferredTransaction { result in
                isolation.signal()
                value(result)
            }
        }
        isolation.wait()
    }

    public func spawnConcurrentRead(_ value: @escaping @Sendable (Result<Database, Error>) -> Void) {
        asyncConcurrentRead(value)
    }

    /// Reads with the connection of the current access if there is one
    /// (writer or reader), or else with a reader.
    public func unsafeReentrantRead<T>(_ value: (Database) throws -> T) throws -> T {
        if writer.isOnQueue {
            return try writer.reentrantSync(value)
        }
        if let reader = readerPool.allElements.first(where: \.isOnQueue) {
            return try reader.reentrantSync(value)
        }
        return try unsafeRead(value)
    }

    // MARK: - Writing

    public func writeWithoutTransaction<T>(_ updates: (Database) throws -> T) rethrows -> T {
        try writer.sync(updates)
    }

    public func writeWithoutTransaction<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T {
        try await writer.execute(updates)
    }

    /// Runs `updates` in a transaction on the writer. The transaction
    /// commits or rolls back as `updates` says; it rolls back if `updates`
    /// throws, and the error is rethrown.
    ///
    /// ```swift
    /// try dbPool.writeInTransaction { db in
    ///     try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: ["Arthur"])
    ///     return .commit
    /// }
    /// ```
    ///
    /// When `kind` is nil, the transaction is IMMEDIATE (DEFERRED if the
    /// pool is read-only).
    ///
    /// See <https://www.sqlite.org/lang_transaction.html>.
    public func writeInTransaction(
        _ kind: Database.TransactionKind? = nil,
        _ updates: (Database) throws -> Database.TransactionCompletion) throws
    {
        try writer.sync { db in try db.inTransaction(kind) { try updates(db) } }
    }

    /// The barrier writes that wait for reads to end, or run (for the
    /// package's tests: a condition to wait on, instead of a sleep).
    package var pendingBarrierCount: Int { readerPool.pendingBarrierCount }

    public func barrierWriteWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T {
        try readerPool.barrier {
            try writer.sync(updates)
        }
    }

    /// Like the other async accesses, the write runs in the task: it sees
    /// its task-local values, and the cancellation of the task interrupts
    /// it.
    public func barrierWriteWithoutTransaction<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T {
        try Task.checkCancellation()
        return try await readerPool.barrier {
            try await writer.execute(updates)
        }
    }

    public func asyncBarrierWriteWithoutTransaction(_ updates: @escaping @Sendable (Result<Database, Error>) -> Void) {
        // The barrier blocks its thread until the reads end.
        DispatchQueue.global().async {
            do {
                try self.readerPool.barrier {
                    self.writer.sync { updates(.success($0)) }
                }
            } catch {
                updates(.failure(error))
            }
        }
    }

    public func asyncWriteWithoutTransaction(_ updates: @escaping @Sendable (Database) -> Void) {
        writer.async(updates)
    }

    public func unsafeReentrantWrite<T>(_ updates: (Database) throws -> T) rethrows -> T {
        try writer.reentrantSync(updates)
    }
}
