import Foundation
import Logging
import PostgresClient
import SyncSchema
import SyncServer

extension PostgresSyncStore {
    /// An app's earlier store of its rows in the same PostgreSQL database
    /// (Players' tables before the engine), which the engine's store takes
    /// in when an instance first starts on it (``SyncServer/SyncAdoption``),
    /// as ``SyncServerEmbedded/ServerSyncDatabase/Adoption`` does in a
    /// file: in the migration's transaction, under its lock, so that one
    /// instance does it.
    package struct Adoption: Sendable {
        /// The earlier store's history, taken in by a store of `schema`'s
        /// tables; nil when the database holds none. Throws, and nothing
        /// is changed, when it cannot be taken in.
        package var history: @Sendable (PostgresConnection, Logger, _ schema: SyncSchema) async throws -> SyncAdoptedHistory?
        /// Its chunk at a position (its first when nil).
        package var chunk: @Sendable (PostgresConnection, Logger, SyncAdoptedChunk.Position?) async throws -> SyncAdoptedChunk
        /// Drops its tables.
        package var drop: @Sendable (PostgresConnection, Logger) async throws -> Void

        package init(
            history: @escaping @Sendable (PostgresConnection, Logger, _ schema: SyncSchema) async throws -> SyncAdoptedHistory?,
            chunk: @escaping @Sendable (PostgresConnection, Logger, SyncAdoptedChunk.Position?) async throws -> SyncAdoptedChunk,
            drop: @escaping @Sendable (PostgresConnection, Logger) async throws -> Void
        ) {
            self.history = history
            self.chunk = chunk
            self.drop = drop
        }
    }

    /// In the migration's transaction: takes in the earlier store, if the
    /// database holds one, by the steps of ``SyncServer/SyncAdoption``; a
    /// restored one's new epoch is begun by ``history(_:_:)``.
    static func adopt(_ earlier: Adoption, _ connection: PostgresConnection, schema: SyncSchema, logger: Logger) async throws {
        guard let adopted = try await earlier.history(connection, logger, schema) else { return }
        var adoption = SyncAdoption(adopted, own: try await counter(connection, logger))
        let rows = PostgresSyncRows(connection: connection, logger: logger, schema: schema)
        while let step = adoption.nextStep() {
            switch step {
            case .moveOwnVersions(let offset):
                // Through negative versions: each is unique at every step.
                try await connection.query("UPDATE sync_server_row SET version = -version", logger: logger)
                try await connection.query("UPDATE sync_server_row SET version = \(offset) - version", logger: logger)
                try await connection.query("UPDATE sync_server_answer SET version = version + \(offset) WHERE version IS NOT NULL",
                                           logger: logger)
            case .setCounter(let counter):
                try await connection.query("UPDATE sync_server_counter SET value = \(counter.value), floor = \(counter.floor) WHERE id = 1",
                                           logger: logger)
            case .setHistory(let server, let epochs, let isRestored):
                // A restored database: a row table that is not the current
                // one begins a new epoch (history(_:_:)).
                try await connection.query(
                    isRestored
                        ? "UPDATE sync_server_identity SET server = \(server), row_table = 0 WHERE id = 1"
                        : "UPDATE sync_server_identity SET server = \(server), row_table = 'sync_server_row'::regclass::oid WHERE id = 1",
                    logger: logger)
                try await connection.query("DELETE FROM sync_server_epoch", logger: logger)
                try await connection.query(
                    """
                    INSERT INTO sync_server_epoch (position, epoch, start)
                    SELECT * FROM unnest(\(epochs.indices.map { Int64($0 + 1) }), \(epochs.map(\.epoch)), \(epochs.map(\.start)))
                    """,
                    logger: logger)
            case .forgetDigests:
                try await connection.query("DELETE FROM sync_server_digest", logger: logger)
            case .takeChunk(let position):
                let chunk = try await earlier.chunk(connection, logger, position)
                try await rows.save(chunk.rows)
                try await rows.record(chunk.answers)
                adoption.took(chunk)
            case .dropEarlierStore:
                try await earlier.drop(connection, logger)
            }
        }
    }
}
