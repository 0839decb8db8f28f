import Logging

/// A store's schema in PostgreSQL, one list of statements per version,
/// applied in order under an advisory lock (several instances may start
/// at once): a migration is appended, never edited. The version reached
/// is kept in a table of the store's own, so that stores that share a
/// database migrate apart.
///
/// ```swift
/// let migrations = PostgresMigrations(versionTable: "sync_server_schema_version", lockKey: 0x73796E63, versions: [[…]])
/// try await migrations.migrate(connection, logger: logger)   // in a transaction
/// ```
package struct PostgresMigrations: Sendable {
    package let versionTable: String
    package let lockKey: Int64
    package let versions: [[PostgresQuery]]

    /// A random epoch in ``SyncCursor/newEpoch()``'s form, made by
    /// PostgreSQL: 16 hexadecimal digits of a random UUID.
    package static let randomEpoch = "encode(substring(uuid_send(gen_random_uuid()) from 1 for 8), 'hex')"

    package init(versionTable: String, lockKey: Int64, versions: [[PostgresQuery]]) {
        self.versionTable = versionTable
        self.lockKey = lockKey
        self.versions = versions
    }

    /// Applies the versions the database lacks, in the caller's
    /// transaction; throws ``PostgresStoreError/newerSchema(version:supported:)``
    /// for a schema that a later program migrated.
    package func migrate(_ connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query("SELECT pg_advisory_xact_lock(\(lockKey))", logger: logger)
        try await connection.query(
            "CREATE TABLE IF NOT EXISTS \(unescaped: versionTable) (id integer PRIMARY KEY CHECK (id = 1), version integer NOT NULL)",
            logger: logger)
        try await connection.query(
            "INSERT INTO \(unescaped: versionTable) (id, version) VALUES (1, 0) ON CONFLICT (id) DO NOTHING", logger: logger)
        var current = 0
        for version in try await connection.query("SELECT version FROM \(unescaped: versionTable) WHERE id = 1", logger: logger).decode(Int.self) {
            current = version
        }
        guard current <= versions.count else {
            throw PostgresStoreError.newerSchema(version: current, supported: versions.count)
        }
        for statements in versions.dropFirst(current) {
            for statement in statements {
                try await connection.query(statement, logger: logger)
            }
        }
        try await connection.query("UPDATE \(unescaped: versionTable) SET version = \(versions.count) WHERE id = 1", logger: logger)
    }
}
