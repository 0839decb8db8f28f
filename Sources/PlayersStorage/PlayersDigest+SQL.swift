import CipherDB
import Foundation
import PlayersProtocol

extension PlayersDigest {
    /// `players_digest_toggle(checksum, uuid, name, score, version)`: the
    /// checksum with one player's hash (``PlayersDigest/hash(uuid:name:score:version:)``)
    /// added or taken out (an XOR), as the integer SQLite stores. The
    /// triggers of ``triggersSQL(prefix:table:playersColumn:checksumColumn:counts:)``
    /// call it, on the players database (the synced players): a connection
    /// that writes players registers it, and one without it (the
    /// `sqlcipher` shell) fails to write a player rather than leave a
    /// wrong digest.
    public static let toggleFunction = DatabaseFunction("players_digest_toggle", argumentCount: 5, pure: true) { values in
        guard let checksum = Int64.fromDatabaseValue(values[0]), let uuid = String.fromDatabaseValue(values[1]),
              let name = String.fromDatabaseValue(values[2]), let score = Int.fromDatabaseValue(values[3]),
              let version = Int64.fromDatabaseValue(values[4]) else {
            throw DatabaseError(message: "players_digest_toggle: a player's value is missing")
        }
        let hash = PlayersDigest.hash(uuidText: uuid, name: name, score: score, version: version)
        return Int64(bitPattern: UInt64(bitPattern: checksum) ^ hash)
    }

    /// The triggers that keep the digest of the `player` table's rows in
    /// the one row of `table` (`playersColumn`, `checksumColumn`), in the
    /// transaction of every statement that writes a player: the rows for
    /// which `counts(row)` (an SQL condition on `OLD` or `NEW`) holds.
    ///
    /// ```swift
    /// try db.execute(sql: PlayersDigest.triggersSQL(prefix: "player_syncedDigest", table: "syncedPlayerDigest",
    ///                                               playersColumn: "players", checksumColumn: "checksum") { row in "\(row).version IS NOT NULL" })
    /// ```
    public static func triggersSQL(prefix: String, table: String, playersColumn: String, checksumColumn: String,
                                   counts: (_ row: String) -> String) -> String {
        func toggled(_ checksum: String, _ row: String) -> String {
            "CASE WHEN \(counts(row)) THEN players_digest_toggle(\(checksum), \(row).uuid, \(row).name, \(row).score, \(row).version) "
                + "ELSE \(checksum) END"
        }
        return """
            CREATE TRIGGER \(prefix)_insert AFTER INSERT ON player WHEN \(counts("NEW")) BEGIN
                UPDATE \(table) SET \(playersColumn) = \(playersColumn) + 1, \(checksumColumn) = \(toggled(checksumColumn, "NEW"));
            END;
            CREATE TRIGGER \(prefix)_delete AFTER DELETE ON player WHEN \(counts("OLD")) BEGIN
                UPDATE \(table) SET \(playersColumn) = \(playersColumn) - 1, \(checksumColumn) = \(toggled(checksumColumn, "OLD"));
            END;
            CREATE TRIGGER \(prefix)_update AFTER UPDATE OF uuid, name, score, version ON player BEGIN
                UPDATE \(table) SET \(playersColumn) = \(playersColumn) + (\(counts("NEW"))) - (\(counts("OLD"))),
                    \(checksumColumn) = \(toggled(toggled(checksumColumn, "OLD"), "NEW"));
            END;
            """
    }

    /// The digest of the players that `sql` selects, as `uuid, name, score,
    /// version`, computed from every one of them: on the players database,
    /// whose triggers keep the same digest without reading them all.
    ///
    /// ```swift
    /// let digest = try PlayersDigest.recomputed(db, sql: "SELECT uuid, name, score, version FROM player")
    /// ```
    public static func recomputed(_ db: Database, sql: String) throws -> PlayersDigest {
        let hasher = PlayersDigestHasher()
        var players = 0
        var checksum: UInt64 = 0
        let rows = try Row.fetchCursor(db, sql: sql)
        while let row = try rows.next() {
            players += 1
            checksum ^= hasher.hash(uuidText: row[0], name: row[1], score: row[2], version: row[3])
        }
        return PlayersDigest(players: players, checksum: checksum)
    }
}
