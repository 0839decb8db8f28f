import PostgresNIO

extension PostgresPlayersStore {
    /// The schema, one list of statements per version, applied in order:
    /// a migration is appended, never edited.
    static let migrations: [[PostgresQuery]] = [
        [
            """
            CREATE TABLE player (
                uuid uuid PRIMARY KEY,
                name text NOT NULL,
                score bigint NOT NULL,
                version bigint NOT NULL UNIQUE)
            """,
            """
            CREATE TABLE tombstone (
                uuid uuid PRIMARY KEY,
                version bigint NOT NULL UNIQUE,
                deleted_at timestamptz NOT NULL)
            """,
            "CREATE INDEX tombstone_deleted_at ON tombstone (deleted_at)",
            // The change counter, and the oldest cursor a delta can start
            // from (tombstones older than it were purged). Every write
            // locks its one row first (the type's documentation).
            """
            CREATE TABLE change_counter (
                id integer PRIMARY KEY CHECK (id = 1),
                value bigint NOT NULL,
                floor bigint NOT NULL)
            """,
            "INSERT INTO change_counter (id, value, floor) VALUES (1, 0, 0)",
            // The mutation ids of `POST /v1/changes` with their answers,
            // purged with the tombstones.
            """
            CREATE TABLE applied_mutation (
                mutation_id uuid PRIMARY KEY,
                result text NOT NULL,
                applied_at timestamptz NOT NULL)
            """,
            "CREATE INDEX applied_mutation_applied_at ON applied_mutation (applied_at)",
        ],
    ]

    /// The key of the advisory lock that migrations hold: "players" in
    /// ASCII, an arbitrary constant of this program.
    static let migrationLockKey: Int64 = 0x706C_6179_6572_73

    /// Creates or migrates the schema to the last version, in one
    /// transaction that holds an advisory lock: of several instances that
    /// start at once, one migrates and the others then find the schema
    /// done. Throws for a database whose schema is newer than this
    /// program's.
    func migrate() async throws {
        let timeout = pool.connectTimeout
        try await pool.withTransaction(leaseTimeout: timeout, operationTimeout: timeout, logger: logger) { [logger] connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(Self.migrationLockKey))", logger: logger)
            try await connection.query(
                "CREATE TABLE IF NOT EXISTS schema_version (id integer PRIMARY KEY CHECK (id = 1), version integer NOT NULL)",
                logger: logger)
            try await connection.query(
                "INSERT INTO schema_version (id, version) VALUES (1, 0) ON CONFLICT (id) DO NOTHING", logger: logger)
            var current = 0
            for try await version in try await connection.query("SELECT version FROM schema_version WHERE id = 1", logger: logger).decode(Int.self) {
                current = version
            }
            guard current <= Self.migrations.count else {
                throw PostgresStoreError(
                    "the PostgreSQL schema is at version \(current), newer than this program's \(Self.migrations.count): upgrade players-server.")
            }
            for statements in Self.migrations.dropFirst(current) {
                for statement in statements {
                    try await connection.query(statement, logger: logger)
                }
            }
            try await connection.query("UPDATE schema_version SET version = \(Self.migrations.count) WHERE id = 1", logger: logger)
        }
    }
}
