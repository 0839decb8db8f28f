import Foundation
import PlayersProtocol
import PlayersServerStore

extension PostgresPlayersStore {
    /// Applies a batch of `POST /v1/changes` in one transaction, by the
    /// rules of ``ChangeDecision``, and records each answer with its
    /// mutation id: a retry, through any instance, gets the same answers
    /// and changes nothing. Throws `PlayersPayloadError` for a batch that
    /// breaks the rules of `PlayersChangeBatch.decode`, before it changes
    /// anything.
    public func applyChanges(_ batch: PlayersChangeBatch) async throws -> PlayersChangeResults {
        try batch.validate()
        let date = Date()
        return try await write { transaction in
            var results: [PlayersChangeResults.Result] = []
            for change in batch.changes {
                if let recorded = try await Self.recordedResult(of: change, transaction) {
                    results.append(recorded)
                } else {
                    let result = try await Self.apply(change, at: date, transaction)
                    try await transaction.connection.query(
                        """
                        INSERT INTO applied_mutation (mutation_id, result, applied_at)
                        VALUES (\(change.mutationID), \(try result.recordedJSON()), \(date))
                        """,
                        logger: transaction.logger)
                    results.append(result)
                }
            }
            return PlayersChangeResults(results: results)
        }
    }

    private static func recordedResult(of change: PlayersChangeBatch.Change, _ transaction: PostgresWrite) async throws -> PlayersChangeResults.Result? {
        let rows = try await transaction.connection.query(
            "SELECT result FROM applied_mutation WHERE mutation_id = \(change.mutationID)", logger: transaction.logger)
        for try await json in rows.decode(String.self) {
            return try PlayersChangeResults.Result(recordedJSON: json)
        }
        return nil
    }

    /// Carries out the ``ChangeDecision`` of a change whose mutation id is
    /// new.
    private static func apply(_ change: PlayersChangeBatch.Change, at date: Date, _ transaction: PostgresWrite) async throws -> PlayersChangeResults.Result {
        let tombstone = try await transaction.tombstone(change.uuid)
        switch try ChangeDecision(change, player: try await transaction.player(change.uuid), tombstone: tombstone) {
        case .answer(let result):
            return result
        case .update(let player):
            return .applied(change, version: try await transaction.update(player).version)
        case .delete:
            return .applied(change, version: try await transaction.delete(change.uuid, at: date)?.version)
        case .insert(let name, let score, let revivesTombstone):
            if revivesTombstone { try await transaction.removeTombstone(change.uuid) }
            return .applied(change, version: try await transaction.insert(uuid: change.uuid, name: name, score: score).version)
        }
    }
}
