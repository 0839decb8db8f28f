import Foundation
import PlayersServerStore
import PlayersStorage
import PostgresClient

extension PostgresPlayersStore {
    public func update(_ uuid: UUID, name: String?, score: Int?, expectedVersion: Int64?) async throws -> PlayerUpdateOutcome {
        try await write { transaction in
            guard var player = try await transaction.player(uuid) else { return .notFound }
            if let expectedVersion, expectedVersion != player.version {
                return .conflict(currentVersion: player.version)
            }
            if let name { player.name = name }
            if let score { player.score = score }
            return .updated(try await transaction.update(player))
        }
    }

    public func delete(_ uuid: UUID) async throws -> Bool {
        try await write { transaction in try await transaction.delete(uuid, at: Date()) != nil }
    }

    /// Inserts `count` random players if there is none. The counter's lock
    /// comes first: of several instances seeding at once, the first seeds
    /// and the others then see its players.
    public func seed(_ count: Int, progress: @escaping @Sendable (Int) -> Void) async throws {
        try await write { transaction in
            let rows = try await transaction.connection.query("SELECT EXISTS (SELECT 1 FROM player)", logger: transaction.logger)
            var hasPlayers = true
            for exists in try rows.decode(Bool.self) { hasPlayers = exists }
            guard !hasPlayers else { return }
            var remaining = count
            while remaining > 0 {
                let batch = (0..<min(remaining, 1000)).map { _ in RandomPlayer.draw() }
                try await transaction.insert(batch)
                remaining -= batch.count
                progress(count - remaining)
            }
        }
    }

    /// The demo's random changes (``RandomPlayerChanges``), in one
    /// transaction; returns the counter after them.
    public func refresh() async throws -> Int64 {
        try await write { transaction in
            let changes = RandomPlayerChanges(existing: try await transaction.players())
            for player in changes.insertions {
                _ = try await transaction.insert(uuid: player.uuid, name: player.name, score: player.score)
            }
            if let deleted = changes.deletion {
                _ = try await transaction.delete(deleted.uuid, at: Date())
            }
            for (var player, score) in changes.scoreChanges {
                player.score = score
                _ = try await transaction.update(player)
            }
            return try await Self.counter(transaction.connection, transaction.logger).value
        }
    }

    /// Deletes the tombstones older than `retention` and moves the oldest
    /// accepted cursor past them; forgets the mutation ids answered before
    /// then, in the same transaction (as `ServerPlayersDatabase` does).
    public func purgeTombstones(olderThan retention: TimeInterval, now: Date) async throws {
        let limit = now.addingTimeInterval(-retention)
        try await write { transaction in
            let (connection, logger) = (transaction.connection, transaction.logger)
            try await connection.query(
                """
                UPDATE change_counter SET floor = GREATEST(floor, expired.version)
                FROM (SELECT max(version) AS version FROM tombstone WHERE deleted_at < \(limit)) AS expired
                WHERE id = 1 AND expired.version IS NOT NULL
                """,
                logger: logger)
            try await connection.query("DELETE FROM tombstone WHERE deleted_at < \(limit)", logger: logger)
            try await connection.query("DELETE FROM applied_mutation WHERE applied_at < \(limit)", logger: logger)
        }
    }
}
