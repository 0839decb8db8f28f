import Foundation
import PlayersProtocol

/// What one change of `POST /v1/changes`, whose mutation id is new, does to
/// a store (the rules of ``PlayersStore/applyChanges(_:)``), decided from
/// the player's live row and its tombstone: every store applies the same
/// rules, and only carries out the decision.
///
/// A save whose base version is the player's version updates it, a save
/// without base version creates a player that the server never had (no
/// row, no tombstone), and a save whose base version is the version of the
/// player's tombstone brings the player back; a delete whose base version
/// is the player's version deletes it, and the delete of a player the
/// server does not have is applied (with the version of its tombstone, if
/// any). Anything else is a conflict, answered with the server's live
/// player, or with no player and the tombstone's version when the player
/// is deleted.
public enum ChangeDecision: Equatable, Sendable {
    /// Changes nothing, and answers this.
    case answer(PlayersChangeResults.Result)
    /// Stores the live player's new name and score with the next version.
    case update(ServerPlayer)
    /// Deletes the live player, leaving a tombstone.
    case delete
    /// Inserts the player with the next version, after removing its
    /// tombstone when `revivesTombstone`.
    case insert(name: String, score: Int, revivesTombstone: Bool)

    /// Decides a change of a validated batch.
    public init(_ change: PlayersChangeBatch.Change, player: ServerPlayer?, tombstone: ServerTombstone?) throws {
        let mutationID = change.mutationID
        if var player {
            guard change.baseVersion == player.version else {
                self = .answer(.init(mutationID: mutationID, status: .conflict, player: player.entry))
                return
            }
            switch change.kind {
            case .save:
                (player.name, player.score) = try Self.savedValues(change)
                self = .update(player)
            case .delete:
                self = .delete
            }
            return
        }
        switch change.kind {
        case .save where change.baseVersion == nil && tombstone == nil:
            let (name, score) = try Self.savedValues(change)
            self = .insert(name: name, score: score, revivesTombstone: false)
        case .save where tombstone != nil && change.baseVersion == tombstone?.version:
            // Made on the deletion itself (a client kept its value after a
            // conflict with it): the player comes back.
            let (name, score) = try Self.savedValues(change)
            self = .insert(name: name, score: score, revivesTombstone: true)
        case .save:
            self = .answer(.init(mutationID: mutationID, status: .conflict, version: tombstone?.version))
        case .delete:
            // Gone either way: the client's delete is done.
            self = .answer(.init(mutationID: mutationID, status: .applied, version: tombstone?.version))
        }
    }

    /// The name (trimmed, as the server stores names) and score of a save
    /// of a validated batch.
    private static func savedValues(_ change: PlayersChangeBatch.Change) throws -> (name: String, score: Int) {
        guard let name = change.name, let score = change.score else {
            throw PlayersPayloadError(path: "$.changes", "a save without a name or a score")
        }
        return (try PlayerValidator.validPlayer(name: name, score: score), score)
    }
}
