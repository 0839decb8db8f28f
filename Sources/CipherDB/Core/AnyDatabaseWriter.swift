/// A type-erased ``DatabaseWriter``: every access is forwarded to the
/// writer it wraps.
///
/// ```swift
/// let writer = AnyDatabaseWriter(dbQueue)
/// try writer.write { db in try db.execute(sql: "DELETE FROM player") }
/// ```
public final class AnyDatabaseWriter: DatabaseWriter {
    /// The wrapped writer.
    let base: any DatabaseWriter

    /// Wraps `base`.
    public init(_ base: any DatabaseWriter) {
        self.base = base
    }

    public var configuration: Configuration { base.configuration }

    public var path: String { base.path }

    public func close() throws {
        try base.close()
    }

    public func interrupt() {
        base.interrupt()
    }

    // MARK: - Reading

    public func read<T>(_ value: (Database) throws -> T) throws -> T {
        try base.read(value)
    }

    public func read<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await base.read(value)
    }

    public func asyncRead(_ value: @escaping @Sendable (Result<Database, Error>) -> Void) {
        base.asyncRead(value)
    }

    public func unsafeRead<T>(_ value: (Database) throws -> T) throws -> T {
        try base.unsafeRead(value)
    }

    public func unsafeRead<T: Sendable>(_ value: @Sendable (Database) throws -> T) async throws -> T {
        try await base.unsafeRead(value)
    }

    public func asyncUnsafeRead(_ value: @escaping @Sendable (Result<Database, Error>) -> Void) {
        base.asyncUnsafeRead(value)
    }

    public func unsafeReentrantRead<T>(_ value: (Database) throws -> T) throws -> T {
        try base.unsafeReentrantRead(value)
    }

    // MARK: - Writing

    public func writeWithoutTransaction<T>(_ updates: (Database) throws -> T) rethrows -> T {
        try base.writeWithoutTransaction(updates)
    }

    public func writeWithoutTransaction<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T {
        try await base.writeWithoutTransaction(updates)
    }

    public func barrierWriteWithoutTransaction<T>(_ updates: (Database) throws -> T) throws -> T {
        try base.barrierWriteWithoutTransaction(updates)
    }

    public func barrierWriteWithoutTransaction<T: Sendable>(_ updates: @Sendable (Database) throws -> T) async throws -> T {
        try await base.barrierWriteWithoutTransaction(updates)
    }

    public func asyncBarrierWriteWithoutTransaction(_ updates: @escaping @Sendable (Result<Database, Error>) -> Void) {
        base.asyncBarrierWriteWithoutTransaction(updates)
    }

    public func asyncWriteWithoutTransaction(_ updates: @escaping @Sendable (Database) -> Void) {
        base.asyncWriteWithoutTransaction(updates)
    }

    public func unsafeReentrantWrite<T>(_ updates: (Database) throws -> T) rethrows -> T {
        try base.unsafeReentrantWrite(updates)
    }

    public func spawnConcurrentRead(_ value: @escaping @Sendable (Result<Database, Error>) -> Void) {
        base.spawnConcurrentRead(value)
    }
}
