import CipherDB
import Foundation
import PlayersProtocol

extension PlayersDigest {
    /// The digest of the players that this database holds as synced (those
    /// with a version), in a read of the caller's: when no local change
    /// waits in the outbox, a server's digest at the stored cursor must be
    /// this one (Docs/Sync.md).
    ///
    /// ```swift
    /// let digest = try await appDatabase.reader.read { db in try PlayersDigest.ofSyncedPlayers(db) }
    /// ```
    public static func ofSyncedPlayers(_ db: Database) throws -> PlayersDigest {
        var players = 0
        var checksum: UInt64 = 0
        let rows = try Row.fetchCursor(db, sql: "SELECT uuid, name, score, version FROM player WHERE version IS NOT NULL")
        while let row = try rows.next() {
            players += 1
            checksum ^= hash(uuidText: row[0], name: row[1], score: row[2], version: row[3])
        }
        return PlayersDigest(players: players, checksum: checksum)
    }
}
