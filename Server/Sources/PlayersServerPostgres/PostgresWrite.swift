import Foundation
import Logging
import PlayersServerStore
import PlayersStorage
import PostgresClient

/// A writing transaction of ``PostgresPlayersStore``, which holds the
/// change counter: the steps of a write, as `ServerPlayersDatabase` takes
/// them in SQLite.
struct PostgresWrite {
    let connection: PostgresConnection
    let logger: Logger
    /// The counter when the transaction locked it, before its own changes.
    let lockedCounter: Int64

    /// Takes the next value of the counter.
    func nextVersion() async throws -> Int64 {
        let rows = try await connection.query(
            "UPDATE change_counter SET value = value + 1 WHERE id = 1 RETURNING value", logger: logger)
        for value in try rows.decode(Int64.self) { return value }
        throw PostgresStoreError.counterMissing
    }

    /// The live player with this uuid.
    func player(_ uuid: UUID) async throws -> ServerPlayer? {
        try await Self.player(uuid, connection, logger)
    }

    static func player(_ uuid: UUID, _ connection: PostgresConnection, _ logger: Logger) async throws -> ServerPlayer? {
        let rows = try await connection.query(
            "SELECT uuid, name, score, version FROM player WHERE uuid = \(uuid)", logger: logger)
        for (uuid, name, score, version) in try rows.decode((UUID, String, Int, Int64).self) {
            return ServerPlayer(uuid: uuid, name: name, score: score, version: version)
        }
        return nil
    }

    /// Every live player.
    func players() async throws -> [ServerPlayer] {
        let rows = try await connection.query("SELECT uuid, name, score, version FROM player", logger: logger)
        var players: [ServerPlayer] = []
        for (uuid, name, score, version) in try rows.decode((UUID, String, Int, Int64).self) {
            players.append(ServerPlayer(uuid: uuid, name: name, score: score, version: version))
        }
        return players
    }

    /// Inserts a player with the next version.
    func insert(uuid: UUID, name: String, score: Int) async throws -> ServerPlayer {
        let player = ServerPlayer(uuid: uuid, name: name, score: score, version: try await nextVersion())
        try await connection.query(
            "INSERT INTO player (uuid, name, score, version) VALUES (\(uuid), \(name), \(score), \(player.version))",
            logger: logger)
        return player
    }

    /// Inserts new players with the next versions, in order, in one
    /// statement (a seed of a million players is a thousand of them).
    func insert(_ players: [RandomPlayer]) async throws {
        let rows = try await connection.query(
            "UPDATE change_counter SET value = value + \(players.count) WHERE id = 1 RETURNING value", logger: logger)
        var last: Int64?
        for value in try rows.decode(Int64.self) { last = value }
        guard let last else { throw PostgresStoreError.counterMissing }
        let first = last - Int64(players.count) + 1
        try await connection.query(
            """
            INSERT INTO player (uuid, name, score, version)
            SELECT * FROM unnest(\(players.map(\.uuid))::uuid[], \(players.map(\.name))::text[],
                                 \(players.map(\.score))::bigint[], \(Array(first...last))::bigint[])
            """,
            logger: logger)
    }

    /// Stores a live player's new name and score with the next version;
    /// returns it with that version.
    func update(_ player: ServerPlayer) async throws -> ServerPlayer {
        var player = player
        player.version = try await nextVersion()
        try await connection.query(
            "UPDATE player SET name = \(player.name), score = \(player.score), version = \(player.version) WHERE uuid = \(player.uuid)",
            logger: logger)
        return player
    }

    /// Deletes a player and returns its tombstone, or nil when there is no
    /// live player with this uuid.
    func delete(_ uuid: UUID, at date: Date) async throws -> ServerTombstone? {
        let rows = try await connection.query("DELETE FROM player WHERE uuid = \(uuid) RETURNING uuid", logger: logger)
        var deleted = false
        for _ in try rows.decode(UUID.self) { deleted = true }
        guard deleted else { return nil }
        let tombstone = ServerTombstone(uuid: uuid, version: try await nextVersion(), deletedAt: date)
        try await connection.query(
            """
            INSERT INTO tombstone (uuid, version, deleted_at) VALUES (\(uuid), \(tombstone.version), \(date))
            ON CONFLICT (uuid) DO UPDATE SET version = excluded.version, deleted_at = excluded.deleted_at
            """,
            logger: logger)
        return tombstone
    }
}
