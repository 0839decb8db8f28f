import CipherDB
import Foundation
import PlayersProtocol

extension ServerPlayersDatabase {
    /// Applies a batch of `POST /v1/changes` (Docs/SyncProtocol.md) in one
    /// transaction, change by change, and answers one result per change.
    ///
    /// A change whose mutation id is recorded gets the recorded result and
    /// changes nothing. Otherwise, a save whose base version is the
    /// player's version updates it, a save without base version creates
    /// a player that the server never had (no row, no tombstone), and a
    /// save whose base version is the version of the player's tombstone
    /// brings the player back; a delete
    /// whose base version is the player's version deletes it, and the
    /// delete of a player the server does not have is applied (with the
    /// version of its tombstone, if any). Anything else is a conflict,
    /// answered with the server's live player, or with no player and the
    /// tombstone's version when the player is deleted. Each result is
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
                    results.append(try recorded.decodedResult())
                } else {
                    let result = try Self.apply(db, change, at: date)
                    try AppliedMutation(result, at: date).insert(db)
                    results.append(result)
                }
            }
            return PlayersChangeResults(results: results)
        }
    }

    /// The rules of ``applyChanges(_:at:)`` for one change whose mutation
    /// id is new, inside the caller's transaction.
    private static func apply(_ db: Database, _ change: PlayersChangeBatch.Change, at date: Date) throws -> PlayersChangeResults.Result {
        let mutationID = change.mutationID
        if var player = try ServerPlayer.fetchOne(db, key: change.uuid.uuidString) {
            guard change.baseVersion == player.version else {
                return .init(mutationID: mutationID, status: .conflict, player: player.entry)
            }
            switch change.kind {
            case .save:
                (player.name, player.score) = try savedValues(change)
                return .init(mutationID: mutationID, status: .applied, version: try update(db, player).version)
            case .delete:
                return .init(mutationID: mutationID, status: .applied, version: try delete(db, uuid: change.uuid, at: date)?.version)
            }
        }
        let tombstone = try ServerTombstone.fetchOne(db, key: change.uuid.uuidString)
        switch change.kind {
        case .save where change.baseVersion == nil && tombstone == nil:
            let (name, score) = try savedValues(change)
            return .init(mutationID: mutationID, status: .applied, version: try insert(db, uuid: change.uuid, name: name, score: score).version)
        case .save where tombstone != nil && change.baseVersion == tombstone?.version:
            // Made on the deletion itself (a client kept its value after a
            // conflict with it): the player comes back.
            try tombstone?.delete(db)
            let (name, score) = try savedValues(change)
            return .init(mutationID: mutationID, status: .applied, version: try insert(db, uuid: change.uuid, name: name, score: score).version)
        case .save:
            return .init(mutationID: mutationID, status: .conflict, version: tombstone?.version)
        case .delete:
            // Gone either way: the client's delete is done.
            return .init(mutationID: mutationID, status: .applied, version: tombstone?.version)
        }
    }

    /// The name (trimmed, as the server stores names) and score of a save
    /// of a validated batch.
    private static func savedValues(_ change: PlayersChangeBatch.Change) throws -> (name: String, score: Int) {
        guard let name = change.name, let score = change.score else {
            throw PlayersPayloadError(path: "$.changes", "a save without a name or a score")
        }
        return (try PlayerValidator.validName(name), score)
    }
}
