import Logging

extension PostgresConnectionPool {
    /// Runs `body` in a read-only `REPEATABLE READ` transaction: every
    /// statement sees the same snapshot, so that a page and its counter
    /// agree. (Its modes are the `BEGIN`'s: no round trip of their own.)
    package func withSnapshotRead<Result: Sendable>(
        logger: Logger, _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        try await withTransaction(begin: "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY", logger: logger, body)
    }
}

extension PostgresConnection {
    /// Locks the one row of a store's change counter (`table`, `id = 1`)
    /// until the transaction ends, and returns its value: the writes of
    /// every instance are serialized on it, so that versions follow commit
    /// order. Throws ``PostgresStoreError/counterMissing`` without it.
    package func lockCounter(_ table: String, logger: Logger) async throws -> Int64 {
        let rows = try await query("SELECT value FROM \(unescaped: table) WHERE id = 1 FOR UPDATE", logger: logger)
        guard let counter = try rows.first(Int64.self) else { throw PostgresStoreError.counterMissing }
        return counter
    }
}
