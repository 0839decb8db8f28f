import Foundation
import Logging
import PostgresClient
import SyncSchema
import SyncServer
import SyncServerPostgres

extension PlayersServerAdoption {
    /// The version the players' own schema (`schema_version`) is left at
    /// once its tables are taken in: one beyond the last release that
    /// kept players there, which then refuses the database as newer
    /// rather than make its tables anew, empty.
    static let takenInSchemaVersion = 4

    /// The adoption of Players' tables in a PostgreSQL database, in the
    /// migration's transaction of the first instance that starts on it.
    package static let postgres = PostgresSyncStore.Adoption(
        history: { connection, logger, schema in
            guard try await exists("change_counter", connection, logger) else { return nil }
            return try history(
                serving: schema,
                counter: try await connection.query("SELECT value, floor FROM change_counter WHERE id = 1", logger: logger)
                    .first((Int64, Int64).self).map { SyncCounter(value: $0, floor: $1) },
                // A table made anew by pg_restore: the players' store began
                // a new epoch when it opened such a database, and so will
                // the engine's.
                identity: try await exists("server_identity", connection, logger)
                    ? try await connection.query(
                        "SELECT server, player_table <> 'player'::regclass::oid FROM server_identity WHERE id = 1", logger: logger
                    ).first((UUID, Bool).self).map { (server: $0, isRestored: $1) }
                    : nil,
                epochs: try await exists("history_epoch", connection, logger)
                    ? try await connection.query("SELECT epoch, start FROM history_epoch ORDER BY position", logger: logger)
                        .decode((String, Int64).self).map { SyncEpoch(epoch: $0, start: $1) }
                    : [])
        },
        chunk: { connection, logger, position in
            let after = position?.after
            switch Part(position) {
            case .players:
                let players = try await connection.query(after.map {
                    "SELECT uuid, name, score, version FROM player WHERE uuid > \($0)::uuid ORDER BY uuid LIMIT \(chunkSize)"
                } ?? "SELECT uuid, name, score, version FROM player ORDER BY uuid LIMIT \(chunkSize)", logger: logger)
                    .decode((UUID, String, Int64, Int64).self)
                return chunk(.players, keys: players.map { $0.0.uuidString },
                             rows: try players.map { try player(uuidText: $0.uuidString, name: $1, score: $2, version: $3) })
            case .tombstones:
                let tombstones = try await connection.query(after.map {
                    "SELECT uuid, version, deleted_at FROM tombstone WHERE uuid > \($0)::uuid ORDER BY uuid LIMIT \(chunkSize)"
                } ?? "SELECT uuid, version, deleted_at FROM tombstone ORDER BY uuid LIMIT \(chunkSize)", logger: logger)
                    .decode((UUID, Int64, Date).self)
                return chunk(.tombstones, keys: tombstones.map { $0.0.uuidString },
                             rows: try tombstones.map { try tombstone(uuidText: $0.uuidString, version: $1, deletedAt: $2) })
            case .answers:
                guard try await exists("applied_mutation", connection, logger) else { return chunk(.answers, keys: []) }
                let answers = try await connection.query(after.map {
                    """
                    SELECT mutation_id, result, applied_at FROM applied_mutation
                    WHERE mutation_id > \($0)::uuid ORDER BY mutation_id LIMIT \(chunkSize)
                    """
                } ?? "SELECT mutation_id, result, applied_at FROM applied_mutation ORDER BY mutation_id LIMIT \(chunkSize)", logger: logger)
                    .decode((UUID, String, Date).self)
                return chunk(.answers, keys: answers.map { $0.0.uuidString },
                             answers: try answers.compactMap { try answer(json: $1, answeredAt: $2) })
            }
        },
        drop: { connection, logger in
            try await connection.query(
                "DROP TABLE IF EXISTS player, tombstone, change_counter, applied_mutation, server_identity, history_epoch CASCADE",
                logger: logger)
            try await connection.query(
                """
                DROP FUNCTION IF EXISTS players_digest_hash(uuid, text, bigint, bigint), players_digest_inserted(),
                    players_digest_deleted(), players_digest_updated(), players_digest_truncated()
                """,
                logger: logger)
            try await connection.query("UPDATE schema_version SET version = \(takenInSchemaVersion)", logger: logger)
        })

    private static func exists(_ table: String, _ connection: PostgresConnection, _ logger: Logger) async throws -> Bool {
        try await connection.query("SELECT to_regclass(\(table)) IS NOT NULL", logger: logger).first(Bool.self) ?? false
    }
}
