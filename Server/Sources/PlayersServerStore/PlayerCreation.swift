import Foundation
import PlayersProtocol

/// What ``PlayersStore/create(uuid:name:score:)`` did.
public enum PlayerCreation: Equatable, Sendable {
    /// The new player, with its version.
    case created(ServerPlayer)
    /// A live player has the uuid: nothing changed.
    case taken(currentVersion: Int64)
    /// The uuid is a deleted player's: nothing changed, and the tombstone,
    /// of this version, stays (so that no client that synced the deletion
    /// gets the player back).
    case deleted(tombstoneVersion: Int64)

    /// The new player, or nil when nothing was created.
    public var player: ServerPlayer? {
        if case .created(let player) = self { player } else { nil }
    }
}

extension PlayersStore {
    /// Creates a player by the rule of a pushed creation (a save without
    /// base version, the engine's `SyncChangePlan`), as one change of
    /// ``applyChanges(_:)``: every store, every endpoint and every push
    /// keep the same rule, tombstones included. Throws
    /// `PlayerValidationError` for a name or score that breaks the rule.
    ///
    /// ```swift
    /// if case .created(let player) = try await store.create(uuid: UUID(), name: "Arthur", score: 100) { … }
    /// ```
    public func create(uuid: UUID, name: String, score: Int) async throws -> PlayerCreation {
        let name = try PlayerValidator.validPlayer(name: name, score: score)
        let change = PlayersChangeBatch.Change(mutationID: UUID(), uuid: uuid, kind: .save, name: name, score: score, baseVersion: nil)
        let results = try await applyChanges(PlayersChangeBatch(changes: [change])).results
        guard results.count == 1, let result = results.first, let version = result.version ?? result.player?.version else {
            throw PlayersPayloadError(path: "$.results", "a store answered a change of one creation with \(results.count) results")
        }
        switch result.status {
        case .applied: return .created(ServerPlayer(uuid: uuid, name: name, score: score, version: version))
        case .conflict where result.player != nil: return .taken(currentVersion: version)
        case .conflict: return .deleted(tombstoneVersion: version)
        }
    }
}
