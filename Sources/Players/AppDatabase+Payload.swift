import CipherDB
import PlayersProtocol

extension AppDatabase {
    /// A snapshot of all players, in id order, as one consistent read.
    public func snapshotPayload() throws -> PlayersPayload {
        let players = try reader.read { db in try Player.order(Player.Columns.id).fetchAll(db) }
        return PlayersPayload(kind: .snapshot, players: players.map {
            PlayersPayload.PlayerEntry(uuid: $0.uuid, name: $0.name, score: $0.score, version: $0.version)
        })
    }
}
