/// A type-erased ``DatabaseReader``: every access is forwarded to the
/// reader it wraps.
///
/// ```swift
/// let reader = AnyDatabaseReader(dbPool)
/// let count = try reader.read { db in try Player.fetchCount(db) }
/// ```
///
/// It hides the writer methods of a ``DatabaseQueue`` or a
/// ``DatabasePool``, so that code that receives it can only read.
public final class AnyDatabaseReader: DatabaseReader {
    /// The wrapped reader.
    let base: any DatabaseReader

    /// Wraps `base`.
    public init(_ base: any DatabaseReader) {
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
}
