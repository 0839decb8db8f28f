import Foundation
import Logging
import PostgresClient
import SyncSchema
import SyncServer

extension PostgresSyncStore {
    /// An app's earlier store of its rows in the same PostgreSQL database
    /// (Players' tables before the engine), which the engine's store takes
    /// in when an instance first starts on it, as
    /// ``SyncServerDatabase/ServerSyncDatabase/Adoption`` does in a file:
    /// in the migration's transaction, under its lock, so that one
    /// instance does it.
    package struct Adoption: Sendable {
        /// The earlier store's history; nil when the database holds none.
        package var history: @Sendable (PostgresConnection, Logger) async throws -> SyncAdoptedHistory?
        /// Hands its rows, live ones and tombstones, to `take`, a chunk at a
        /// time.
        package var rows: @Sendable (PostgresConnection, Logger, _ take: ([SyncStoredRow]) async throws -> Void) async throws -> Void
        /// Hands the answers it kept to `take`, a chunk at a time.
        package var answers: @Sendable (PostgresConnection, Logger, _ take: ([SyncRecordedAnswer]) async throws -> Void) async throws -> Void
        /// Drops its tables.
        package var drop: @Sendable (PostgresConnection, Logger) async throws -> Void

        package init(
            history: @escaping @Sendable (PostgresConnection, Logger) async throws -> SyncAdoptedHistory?,
            rows: @escaping @Sendable (PostgresConnection, Logger, _ take: ([SyncStoredRow]) async throws -> Void) async throws -> Void,
            answers: @escaping @Sendable (PostgresConnection, Logger, _ take: ([SyncRecordedAnswer]) async throws -> Void) async throws -> Void,
            drop: @escaping @Sendable (PostgresConnection, Logger) async throws -> Void
        ) {
            self.history = history
            self.rows = rows
            self.answers = answers
            self.drop = drop
        }
    }

    /// In the migration's transaction: takes in the earlier store, if the
    /// database holds one, as the embedded store does (its own rows, if
    /// any, after the adopted counter; the adopted history its own; a
    /// restored one's new epoch begun by ``history(_:_:)``).
    static func adopt(_ adoption: Adoption, _ connection: PostgresConnection, schema: SyncSchema, logger: Logger) async throws {
        guard let history = try await adoption.history(connection, logger) else { return }
        let own = try await counter(connection, logger)
        let offset = history.counter
        if own.value > 0 {
            // Through negative versions: each is unique at every step.
            try await connection.query("UPDATE sync_server_row SET version = -version", logger: logger)
            try await connection.query("UPDATE sync_server_row SET version = \(offset) - version", logger: logger)
            try await connection.query("UPDATE sync_server_answer SET version = version + \(offset) WHERE version IS NOT NULL", logger: logger)
        }
        let floor = max(history.floor, own.floor > 0 ? own.floor + offset : 0)
        try await connection.query("UPDATE sync_server_counter SET value = \(own.value + offset), floor = \(floor) WHERE id = 1", logger: logger)
        // A restored database: a row table that is not the current one
        // begins a new epoch (history(_:_:)).
        try await connection.query(
            history.isRestored
                ? "UPDATE sync_server_identity SET server = \(history.server), row_table = 0 WHERE id = 1"
                : "UPDATE sync_server_identity SET server = \(history.server), row_table = 'sync_server_row'::regclass::oid WHERE id = 1",
            logger: logger)
        try await connection.query("DELETE FROM sync_server_epoch", logger: logger)
        try await connection.query(
            """
            INSERT INTO sync_server_epoch (position, epoch, start)
            SELECT * FROM unnest(\(history.epochs.indices.map { Int64($0 + 1) }), \(history.epochs.map(\.epoch)), \(history.epochs.map(\.start)))
            """,
            logger: logger)
        try await connection.query("DELETE FROM sync_server_digest", logger: logger)
        let rows = PostgresSyncRows(connection: connection, logger: logger, schema: schema)
        try await adoption.rows(connection, logger) { chunk in try await rows.save(chunk) }
        try await adoption.answers(connection, logger) { chunk in try await rows.record(chunk) }
        try await adoption.drop(connection, logger)
    }
}
