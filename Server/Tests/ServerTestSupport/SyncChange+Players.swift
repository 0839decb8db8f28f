import Foundation
import PlayersShared
import SyncSchema

extension SyncChange {
    /// A push's upsert of a whole player (Players' table is one where the
    /// server wins), made on `base` (nil: a creation).
    public static func playerSave(_ uuid: UUID, name: String, score: Int64, base: Int64?, mutationID: UUID = UUID()) throws -> SyncChange {
        SyncChange(mutationID: mutationID, operation: .upsert,
                   row: try PlayersSchema.player.row(id: uuid, values: ["name": .text(name), "score": .integer(score)]), baseVersion: base)
    }

    /// A push's delete of a player, made on `base`.
    public static func playerDelete(_ uuid: UUID, base: Int64?, mutationID: UUID = UUID()) throws -> SyncChange {
        SyncChange(mutationID: mutationID, operation: .delete,
                   row: try PlayersSchema.player.row(id: uuid, values: [:], carrying: .changed), baseVersion: base)
    }
}
