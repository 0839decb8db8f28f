import Logging

extension PostgresConnectionPool {
    /// A pool on `url`, and what `prepare` makes of it (a store's
    /// migration and the state it reads at start); the pool is closed when
    /// `prepare` throws, so that a store that cannot start leaves no
    /// connection open.
    ///
    /// ```swift
    /// let (pool, history) = try await PostgresConnectionPool.opened(url: url, connectTimeout: .seconds(10), logger: logger) { pool in
    ///     try await pool.withTransaction(logger: logger) { connection in try await migrate(connection) }
    /// }
    /// ```
    package static func opened<Prepared>(
        url: PostgresURL,
        connectTimeout: Duration,
        leaseTimeout: Duration,
        operationTimeout: Duration,
        logger: Logger,
        prepare: (PostgresConnectionPool) async throws -> Prepared
    ) async throws -> (pool: PostgresConnectionPool, prepared: Prepared) {
        let pool = PostgresConnectionPool(
            url: url, connectTimeout: connectTimeout, leaseTimeout: leaseTimeout, operationTimeout: operationTimeout, logger: logger)
        do {
            return (pool, try await prepare(pool))
        } catch {
            await pool.close()
            throw error
        }
    }
}
