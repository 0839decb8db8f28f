import Foundation

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

    /// Closes the writer and the idle readers. Later accesses throw
    /// `SQLITE_MISUSE`.
    public func close() throws {
        try readerPool.barrier {
            for reader in readerPool.close() {
                try reader.close()
            }
        }
        try writer.close()
    }

    public func interrupt() {
        writer.interrupt()
        readerPool.allElements.forEach { $0.interrupt() }
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
            try reader.sync { db in try db.snapshotRead { try value(db) } }
        }
    }

    public func read<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await withReader { reader in
            try await reader.execute { db in try db.snapshotRead { try value(db) } }
        }
    }

    public func asyncRead(_ value: @escaping @Sendable (Result<Database, Error>) -> Void) {
        readerPool.request { result in
            switch result {
            case .success(let item):
                item.element.async { db in
                    defer { self.readerPool.release(item) }
                    do {
                        try db.checkIsOpen()
                        try db.snapshotRead { value(.success(db)) }
                    } catch {
                        value(.failure(error))
                    }
                }
            case .failure(let error):
                value(.failure(error))
            }
        }
    }

    public func unsafeRead<T>(_ value: (Database) throws -> T) throws -> T {
        try withReader { reader in try reader.sync(value) }
    }

    public func unsafeRead<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await withReader { reader in try await reader.execute(value) }
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

    public func writeWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T {
        try writer.sync { db in try db.checkedWriteAccess { try updates(db) } }
    }

    public func writeWithoutTransaction<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T {
        try await writer.execute { db in try db.checkedWriteAccess { try updates(db) } }
    }

    public func barrierWriteWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T {
        try readerPool.barrier {
            try writeWithoutTransaction(updates)
        }
    }

    public func barrierWriteWithoutTransaction<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T {
        // The barrier blocks its thread until the reads end: not on the
        // cooperative pool.
        try await withoutActuallyEscaping(updates) { updates in
            try await withCheckedThrowingContinuation { continuation in
                DispatchQueue.global().async {
                    continuation.resume(with: Result { try self.barrierWriteWithoutTransaction(updates) })
                }
            }
        }
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
}

extension Database {
    /// A read access on a pool reader: a deferred transaction whose
    /// snapshot is taken at once, before `value` runs.
    func snapshotRead<T>(_ value: () throws -> T) throws -> T {
        var result: T?
        try inTransaction(.deferred) {
            // A read transaction starts at the first read: this one.
            try executeCached(sql: "SELECT rootpage FROM sqlite_master LIMIT 1")
            result = try value()
            return .rollback
        }
        return result!
    }
}
