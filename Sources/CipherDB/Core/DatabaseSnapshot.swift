/// A reader of a ``DatabasePool``'s database as it was when the snapshot
/// was made: later writes are not seen.
///
/// ```swift
/// let snapshot = try dbPool.makeSnapshot()
/// try dbPool.write { db in try db.execute(sql: "DELETE FROM player") }
/// let count = try snapshot.read { db in try Player.fetchCount(db) } // as before the delete
/// ```
///
/// A snapshot has its own connection, which keeps a read transaction open
/// for as long as the snapshot lives: while it lives, the WAL file can not
/// be checkpointed past it, and grows. Make snapshots short-lived.
///
/// See <https://www.sqlite.org/isolation.html>.
public final class DatabaseSnapshot: DatabaseSnapshotReader {
    private let reader: SerializedDatabase

    public let configuration: Configuration

    public var path: String { reader.path }

    /// Opens a read-only connection, and starts the transaction that fixes
    /// the state it reads.
    init(path: String, configuration: Configuration, description: String) throws {
        var configuration = configuration
        configuration.readonly = true
        // The transaction lives as long as the snapshot.
        configuration.allowsUnsafeTransactions = true
        self.configuration = configuration
        reader = try SerializedDatabase(path: path, configuration: configuration, description: description)
        try reader.sync { db in
            try db.beginTransaction(.deferred)
            // A deferred transaction takes its snapshot at its first read.
            try db.execute(sql: "SELECT rootpage FROM sqlite_master LIMIT 1")
        }
    }

    deinit {
        reader.reentrantSync { db in
            do {
                try db.commit()
            } catch {
                try? db.rollback()
            }
        }
    }

    public func close() throws {
        try reader.close()
    }

    public func interrupt() {
        reader.interrupt()
    }

    // MARK: - Reading

    /// Every access of a snapshot reads the same state: there is no need
    /// for a transaction per read.
    public func read<T>(_ value: (Database) throws -> T) rethrows -> T {
        try reader.sync(value)
    }

    public func read<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await reader.execute(value)
    }

    public func asyncRead(_ value: @escaping @Sendable (Result<Database, Error>) -> Void) {
        reader.async { value(.success($0)) }
    }

    public func unsafeRead<T>(_ value: (Database) throws -> T) rethrows -> T {
        try reader.sync(value)
    }

    public func unsafeRead<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await reader.execute(value)
    }

    public func asyncUnsafeRead(_ value: @escaping @Sendable (Result<Database, Error>) -> Void) {
        reader.async { value(.success($0)) }
    }

    public func unsafeReentrantRead<T>(_ value: (Database) throws -> T) throws -> T {
        try reader.reentrantSync(value)
    }
}

/// A ``DatabaseReader`` whose every access sees the same unchanging
/// state: ``DatabaseSnapshot``. Its reads are reentrant, and its unsafe
/// reads are as safe as its reads.
public protocol DatabaseSnapshotReader: DatabaseReader {}

extension DatabaseSnapshotReader {
    /// Reads, even from inside another read of the same snapshot.
    ///
    /// ```swift
    /// try snapshot.read { db in
    ///     try snapshot.reentrantRead { db in try Player.fetchCount(db) }
    /// }
    /// ```
    public func reentrantRead<T>(_ value: (Database) throws -> T) throws -> T {
        try unsafeReentrantRead(value)
    }
}

extension DatabasePool {
    /// Makes a reader of the database as it is now, which later writes
    /// do not change.
    ///
    /// ```swift
    /// let snapshot = try dbPool.makeSnapshot()
    /// let count = try snapshot.read { db in try Player.fetchCount(db) }
    /// ```
    ///
    /// Call it outside of any transaction of the writer: the snapshot
    /// would not see what the transaction has not committed yet.
    public func makeSnapshot() throws -> DatabaseSnapshot {
        try DatabaseSnapshot(
            path: path,
            configuration: configuration,
            description: "\(configuration.label ?? "CipherDB.DatabasePool").snapshot.\(snapshotCount.add(1, ordering: .relaxed).newValue)")
    }
}
