import Foundation
import PlayersProtocol
import PlayersServerStore
import PostgresClient

extension PostgresPlayersStore {
    /// Applies a batch of `POST /v1/changes` in one transaction, by the
    /// rules of ``ChangeDecision``, and records each answer with its
    /// mutation id: a retry, through any instance, gets the same answers
    /// and changes nothing. Throws `PlayersPayloadError` for a batch that
    /// breaks the rules of `PlayersChangeBatch.decode`, before it changes
    /// anything.
    ///
    /// A batch takes the same round trips whatever its size (change by
    /// change, a full one took 3,000, and could outlast the operation
    /// timeout): one query each fetches the recorded answers, the live
    /// players and the tombstones that the batch names, a
    /// ``ChangeBatchPlan`` decides every change in memory, and one
    /// set-based statement per kind of row writes it.
    public func applyChanges(_ batch: PlayersChangeBatch) async throws -> PlayersChangeResults {
        try batch.validate()
        let date = Date()
        return try await write { transaction in
            let uuids = batch.changes.map(\.uuid)
            let plan = try ChangeBatchPlan(
                batch,
                recorded: try await Self.recordedResults(of: batch.changes.map(\.mutationID), transaction),
                players: try await Self.players(uuids, transaction),
                tombstones: try await Self.tombstones(uuids, transaction),
                counter: transaction.lockedCounter,
                date: date)
            try await Self.write(plan, at: date, transaction)
            return PlayersChangeResults(results: plan.results)
        }
    }

    /// The recorded answers of these mutation ids, by mutation id.
    private static func recordedResults(of mutationIDs: [UUID], _ transaction: PostgresWrite) async throws -> [UUID: RecordedAnswer] {
        let rows = try await transaction.connection.query(
            "SELECT mutation_id, result FROM applied_mutation WHERE mutation_id = ANY(\(mutationIDs)::uuid[])",
            logger: transaction.logger)
        var results: [UUID: RecordedAnswer] = [:]
        for (mutationID, json) in try rows.decode((UUID, String).self) {
            results[mutationID] = try RecordedAnswer(json: json)
        }
        return results
    }

    /// The live players with these uuids.
    private static func players(_ uuids: [UUID], _ transaction: PostgresWrite) async throws -> [ServerPlayer] {
        let rows = try await transaction.connection.query(
            "SELECT uuid, name, score, version FROM player WHERE uuid = ANY(\(uuids)::uuid[])", logger: transaction.logger)
        var players: [ServerPlayer] = []
        for (uuid, name, score, version) in try rows.decode((UUID, String, Int, Int64).self) {
            players.append(ServerPlayer(uuid: uuid, name: name, score: score, version: version))
        }
        return players
    }

    /// The tombstones of the players with these uuids.
    private static func tombstones(_ uuids: [UUID], _ transaction: PostgresWrite) async throws -> [ServerTombstone] {
        let rows = try await transaction.connection.query(
            "SELECT uuid, version, deleted_at FROM tombstone WHERE uuid = ANY(\(uuids)::uuid[])", logger: transaction.logger)
        var tombstones: [ServerTombstone] = []
        for (uuid, version, deletedAt) in try rows.decode((UUID, Int64, Date).self) {
            tombstones.append(ServerTombstone(uuid: uuid, version: version, deletedAt: deletedAt))
        }
        return tombstones
    }

    /// Writes the rows of `plan`, one statement per kind of row, none for
    /// a kind it leaves alone. Its rows never meet: a uuid is saved or
    /// deleted in each table, not both, and every version it writes is
    /// above the counter it started from, so no statement can collide
    /// with another's rows.
    private static func write(_ plan: ChangeBatchPlan, at date: Date, _ transaction: PostgresWrite) async throws {
        let (connection, logger) = (transaction.connection, transaction.logger)
        if !plan.playersToDelete.isEmpty {
            try await connection.query("DELETE FROM player WHERE uuid = ANY(\(plan.playersToDelete)::uuid[])", logger: logger)
        }
        if !plan.tombstonesToDelete.isEmpty {
            try await connection.query("DELETE FROM tombstone WHERE uuid = ANY(\(plan.tombstonesToDelete)::uuid[])", logger: logger)
        }
        let tombstones = plan.tombstonesToSave
        if !tombstones.isEmpty {
            try await connection.query(
                """
                INSERT INTO tombstone (uuid, version, deleted_at)
                SELECT * FROM unnest(\(tombstones.map(\.uuid))::uuid[], \(tombstones.map(\.version))::bigint[],
                                     \(tombstones.map(\.deletedAt))::timestamptz[])
                ON CONFLICT (uuid) DO UPDATE SET version = excluded.version, deleted_at = excluded.deleted_at
                """,
                logger: logger)
        }
        let players = plan.playersToSave
        if !players.isEmpty {
            try await connection.query(
                """
                INSERT INTO player (uuid, name, score, version)
                SELECT * FROM unnest(\(players.map(\.uuid))::uuid[], \(players.map(\.name))::text[],
                                     \(players.map(\.score))::bigint[], \(players.map(\.version))::bigint[])
                ON CONFLICT (uuid) DO UPDATE SET name = excluded.name, score = excluded.score, version = excluded.version
                """,
                logger: logger)
        }
        let recorded = plan.resultsToRecord
        if !recorded.isEmpty {
            try await connection.query(
                """
                INSERT INTO applied_mutation (mutation_id, result, applied_at)
                SELECT mutation_id, result, \(date) FROM unnest(\(recorded.map(\.result.mutationID))::uuid[],
                                                                \(try recorded.map { try $0.json() })::text[])
                    AS recorded (mutation_id, result)
                """,
                logger: logger)
        }
        if plan.counter != transaction.lockedCounter {
            try await connection.query("UPDATE change_counter SET value = \(plan.counter) WHERE id = 1", logger: logger)
        }
    }
}
