import CipherDB
import PlayersProtocol

extension AppDatabase {
    /// A snapshot of all players, in id order, as one consistent read.
    /// `progress`, if any, gets the players read so far and their total,
    /// every thousand players and at the end.
    public func snapshotPayload(progress: ((_ read: Int, _ total: Int) -> Void)? = nil) throws -> PlayersPayload {
        let players = try reader.read { db in
            let total = try Player.fetchCount(db)
            var players: [PlayersPayload.PlayerEntry] = []
            players.reserveCapacity(total)
            let cursor = try Player.order(Player.Columns.id).fetchCursor(db)
            while let player = try cursor.next() {
                players.append(PlayersPayload.PlayerEntry(uuid: player.uuid, name: player.name, score: player.score, version: player.version))
                if players.count % 1000 == 0 { progress?(players.count, total) }
            }
            progress?(players.count, total)
            return players
        }
        return PlayersPayload(kind: .snapshot, players: players)
    }
}
