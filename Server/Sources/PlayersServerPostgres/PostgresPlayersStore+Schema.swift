import Foundation
import Logging
import PlayersProtocol
import PlayersServerStore
import PostgresClient
import SyncServer

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
        [
            // The database's identity and the epochs of its history
            // (``ServerHistory``). `player_table` is the oid of the player
            // table when the current epoch began: `pg_restore` makes the
            // tables anew, with new oids, so that a restored database
            // begins a new epoch (``beginEpochIfRestored(_:)``).
            """
            CREATE TABLE server_identity (
                id integer PRIMARY KEY CHECK (id = 1),
                server uuid NOT NULL,
                player_table oid NOT NULL)
            """,
            "INSERT INTO server_identity (id, server, player_table) VALUES (1, gen_random_uuid(), 'player'::regclass::oid)",
            """
            CREATE TABLE history_epoch (
                position integer PRIMARY KEY,
                epoch text NOT NULL UNIQUE,
                start bigint NOT NULL)
            """,
            PostgresQuery(unsafeSQL: "INSERT INTO history_epoch (position, epoch, start) VALUES (1, \(PostgresMigrations.randomEpoch), 0)"),
        ],
        [
            // The digest of the live players (``PlayersDigest``) in the
            // counter's row, kept by triggers in the transaction of every
            // statement that writes players, whoever runs it: one hash
            // per player, the same as `PlayersDigest.hash` computes.
            "ALTER TABLE change_counter ADD COLUMN player_count bigint NOT NULL DEFAULT 0, ADD COLUMN checksum bigint NOT NULL DEFAULT 0",
            """
            CREATE FUNCTION players_digest_hash(uuid uuid, name text, score bigint, version bigint) RETURNS bigint
            LANGUAGE sql IMMUTABLE STRICT
            AS $$ SELECT ('x' || left(md5(convert_to(uuid::text || '|' || version::text || '|' || score::text || '|' || name, 'UTF8')),
                                     16))::bit(64)::bigint $$
            """,
            """
            CREATE FUNCTION players_digest_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                UPDATE change_counter SET player_count = player_count + added.n, checksum = checksum # added.x
                FROM (SELECT count(*) AS n, coalesce(bit_xor(players_digest_hash(uuid, name, score, version)), 0) AS x
                      FROM new_players) AS added
                WHERE id = 1;
                RETURN NULL;
            END $$
            """,
            """
            CREATE FUNCTION players_digest_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                UPDATE change_counter SET player_count = player_count - removed.n, checksum = checksum # removed.x
                FROM (SELECT count(*) AS n, coalesce(bit_xor(players_digest_hash(uuid, name, score, version)), 0) AS x
                      FROM old_players) AS removed
                WHERE id = 1;
                RETURN NULL;
            END $$
            """,
            """
            CREATE FUNCTION players_digest_updated() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                UPDATE change_counter SET checksum = checksum # before.x # after.x
                FROM (SELECT coalesce(bit_xor(players_digest_hash(uuid, name, score, version)), 0) AS x FROM old_players) AS before,
                     (SELECT coalesce(bit_xor(players_digest_hash(uuid, name, score, version)), 0) AS x FROM new_players) AS after
                WHERE id = 1;
                RETURN NULL;
            END $$
            """,
            """
            CREATE FUNCTION players_digest_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                UPDATE change_counter SET player_count = 0, checksum = 0 WHERE id = 1;
                RETURN NULL;
            END $$
            """,
            """
            CREATE TRIGGER player_digest_insert AFTER INSERT ON player REFERENCING NEW TABLE AS new_players
            FOR EACH STATEMENT EXECUTE FUNCTION players_digest_inserted()
            """,
            """
            CREATE TRIGGER player_digest_delete AFTER DELETE ON player REFERENCING OLD TABLE AS old_players
            FOR EACH STATEMENT EXECUTE FUNCTION players_digest_deleted()
            """,
            """
            CREATE TRIGGER player_digest_update AFTER UPDATE ON player REFERENCING OLD TABLE AS old_players NEW TABLE AS new_players
            FOR EACH STATEMENT EXECUTE FUNCTION players_digest_updated()
            """,
            "CREATE TRIGGER player_digest_truncate AFTER TRUNCATE ON player FOR EACH STATEMENT EXECUTE FUNCTION players_digest_truncated()",
            """
            UPDATE change_counter SET player_count = (SELECT count(*) FROM player),
                checksum = (SELECT coalesce(bit_xor(players_digest_hash(uuid, name, score, version)), 0) FROM player)
            WHERE id = 1
            """,
        ],
    ]


    /// The migrations, under an advisory lock whose key is "players" in
    /// ASCII, an arbitrary constant of this program.
    static let schema = PostgresMigrations(versionTable: "schema_version", lockKey: 0x706C_6179_6572_73, versions: migrations)

    static func migrate(_ pool: PostgresConnectionPool, logger: Logger) async throws -> ServerHistory {
        return try await pool.withTransaction(leaseTimeout: pool.connectTimeout, logger: logger) { connection in
            try await schema.migrate(connection, logger: logger)
            return try await beginEpochIfRestored(connection, logger)
        }
    }

    /// In the migration's transaction: begins a new epoch, at the counter,
    /// if the player table is not the one the current epoch began with
    /// (`pg_restore` made it anew, or the database was restored into
    /// another one), and returns the history.
    static func beginEpochIfRestored(_ connection: PostgresConnection, _ logger: Logger) async throws -> ServerHistory {
        var identity: (server: UUID, isSameTable: Bool)?
        for row in try await connection.query(
            "SELECT server, player_table = 'player'::regclass::oid FROM server_identity WHERE id = 1", logger: logger
        ).decode((UUID, Bool).self) {
            identity = row
        }
        guard let identity else {
            throw PostgresStoreError.identityMissing
        }
        if !identity.isSameTable {
            try await connection.query(PostgresQuery(unsafeSQL: """
                INSERT INTO history_epoch (position, epoch, start)
                SELECT MAX(position) + 1, \(PostgresMigrations.randomEpoch), (SELECT value FROM change_counter WHERE id = 1) FROM history_epoch
                """), logger: logger)
            try await connection.query("UPDATE server_identity SET player_table = 'player'::regclass::oid WHERE id = 1", logger: logger)
        }
        var epochs: [PlayersEpoch] = []
        for (epoch, start) in try await connection.query(
            "SELECT epoch, start FROM history_epoch ORDER BY position", logger: logger
        ).decode((String, Int64).self) {
            epochs.append(PlayersEpoch(epoch: epoch, start: start))
        }
        guard !epochs.isEmpty else {
            throw PostgresStoreError.epochMissing
        }
        return ServerHistory(server: identity.server, epochs: epochs)
    }
}
