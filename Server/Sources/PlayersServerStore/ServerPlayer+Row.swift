import Foundation
import PlayersProtocol
import SyncSchema
import SyncServer

extension ServerPlayer {
    /// The player of a live row of the engine's `player` table.
    init(row: SyncStoredRow) throws {
        guard let values = row.values else { throw SyncChangeError.storedRowDamaged(row.key) }
        try self.init(uuid: row.key.id, values: values, version: row.version)
    }

    /// The player whose row has these values (``PlayersSchema/player``'s
    /// columns, which the store checked when it read them).
    init(uuid: UUID, values: [String: SyncValue], version: Int64) throws {
        guard case .text(let name)? = values["name"], case .integer(let score)? = values["score"] else {
            throw SyncChangeError.storedRowDamaged(SyncRowKey(table: PlayersSchema.player.name, id: uuid))
        }
        self.init(uuid: uuid, name: name, score: Int(score), version: version)
    }
}
