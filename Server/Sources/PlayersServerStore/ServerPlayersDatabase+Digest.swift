import CipherDB
import Foundation
import PlayersProtocol
import PlayersStorage

extension ServerPlayersDatabase {
    /// The migration that keeps the digest of the live players in the
    /// counter's row (`playerCount`, `checksum`), in the transaction of
    /// every write, whatever statement makes it: it computes it once from
    /// the players, and triggers follow each insert, update and delete
    /// (``PlayersDigest/triggersSQL(prefix:table:playersColumn:checksumColumn:counts:)``,
    /// which call ``PlayersDigest/toggleFunction``).
    static func addDigest(_ db: Database) throws {
        try db.alter(table: "changeCounter") { t in
            t.add(column: "playerCount", .integer).notNull().defaults(to: 0)
            t.add(column: "checksum", .integer).notNull().defaults(to: 0)
        }
        try db.execute(sql: PlayersDigest.triggersSQL(prefix: "player_digest", table: "changeCounter", playersColumn: "playerCount",
                                                      checksumColumn: "checksum") { _ in "1" })
        let digest = try PlayersDigest.recomputed(db, sql: "SELECT uuid, name, score, version FROM player")
        try db.execute(sql: "UPDATE changeCounter SET playerCount = ?, checksum = ?",
                       arguments: [digest.players, Int64(bitPattern: digest.checksumValue ?? 0)])
    }

    /// The digest of the live players, from the counter's row.
    static func digest(_ db: Database) throws -> PlayersDigest {
        guard let row = try Row.fetchOne(db, sql: "SELECT playerCount, checksum FROM changeCounter") else {
            throw DatabaseError(message: "the change counter is missing")
        }
        return PlayersDigest(players: row[0], checksum: UInt64(bitPattern: row[1] as Int64))
    }
}
