import CipherDB
import PlayersShared

extension AppDatabase {
    /// A snapshot of all players, in id order, as one consistent read.
    /// `progress`, if any, gets the players read so far and their total,
    /// every thousand players and at the end.
    public func snapshotPayload(progress: ((_ read: Int, _ total: Int) -> Void)? = nil) throws -> PlayersPayload {
        let players = try reader.read { db in
            let total = try Player.fetchCount(db)
            var players: [PlayersPayload.PlayerEntry] = []
            players.reserveCapacity(total)
            let cursor = try Row.fetchCursor(db, Player
                .select(Player.Columns.uuid, Player.Columns.name, Player.Columns.score, Player.versionExpression)
                .order(Player.Columns.id))
            while let row = try cursor.next() {
                players.append(PlayersPayload.PlayerEntry(uuid: row[0], name: row[1], score: row[2], version: row[3]))
                if players.count % 1000 == 0 { progress?(players.count, total) }
            }
            progress?(players.count, total)
            return players
        }
        return PlayersPayload(kind: .snapshot, players: players)
    }
}
