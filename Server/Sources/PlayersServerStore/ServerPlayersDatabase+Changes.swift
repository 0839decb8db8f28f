import CipherDB
import Foundation
import PlayersProtocol

extension ServerPlayersDatabase {
    /// Applies a batch of `POST /v1/changes` (Docs/SyncProtocol.md) in one
    /// transaction, change by change, and answers one result per change.
    ///
    /// A change whose mutation id is recorded gets the recorded result and
    /// changes nothing (another change with that id is refused, with the
    /// whole batch: ``MutationIDReusedError``); any other follows the rules of ``ChangeDecision``
    /// (applied, or a conflict that changes nothing). Each result is
    /// recorded with its mutation id in the same transaction, conflicts
    /// too: a retry gets the same answer. `date` is when deletions and
    /// mutation ids are recorded.
    ///
    /// Throws ``PlayersPayloadError`` for a batch that breaks the rules of
    /// `PlayersChangeBatch.decode`, before it changes anything.
    public func applyChanges(_ batch: PlayersChangeBatch, at date: Date = Date()) throws -> PlayersChangeResults {
        try batch.validate()
        return try writer.write { db in
            var results: [PlayersChangeResults.Result] = []
            for change in batch.changes {
                if let recorded = try AppliedMutation.fetchOne(db, key: change.mutationID.uuidString) {
                    results.append(try recorded.decodedAnswer().answer(toRetryOf: change))
                } else {
                    let result = try Self.apply(db, change, at: date)
                    try AppliedMutation(RecordedAnswer(result, for: change), at: date).insert(db)
                    results.append(result)
                }
            }
            return PlayersChangeResults(results: results)
        }
    }

    /// The rules of ``applyChanges(_:at:)`` (``ChangeDecision``) for one
    /// change whose mutation id is new, inside the caller's transaction.
    private static func apply(_ db: Database, _ change: PlayersChangeBatch.Change, at date: Date) throws -> PlayersChangeResults.Result {
        let tombstone = try ServerTombstone.fetchOne(db, key: change.uuid.uuidString)
        switch try ChangeDecision(change, player: try ServerPlayer.fetchOne(db, key: change.uuid.uuidString), tombstone: tombstone) {
        case .answer(let result):
            return result
        case .update(let player):
            return .applied(change, version: try update(db, player).version)
        case .delete:
            return .applied(change, version: try delete(db, uuid: change.uuid, at: date)?.version)
        case .insert(let name, let score, let revivesTombstone):
            if revivesTombstone { try tombstone?.delete(db) }
            return .applied(change, version: try insert(db, uuid: change.uuid, name: name, score: score).version)
        }
    }
}
