import CipherDB
import Foundation
import PlayersProtocol

extension ServerPlayersDatabase {
    /// `players_digest_toggle(checksum, uuid, name, score, version)`: the
    /// checksum with one player's hash (``PlayersDigest``) added or taken
    /// out (an XOR), as the integer SQLite stores. The triggers of
    /// ``addDigest(_:)`` call it; it is registered on the writer
    /// connection before the migrations, so a program that writes the
    /// players without it (the `sqlcipher` shell) fails instead of leaving
    /// a wrong digest; another connection that writes players registers
    /// it too.
    public static let digestToggleFunction = DatabaseFunction("players_digest_toggle", argumentCount: 5, pure: true) { values in
        guard let checksum = Int64.fromDatabaseValue(values[0]), let uuid = String.fromDatabaseValue(values[1]),
              let name = String.fromDatabaseValue(values[2]), let score = Int.fromDatabaseValue(values[3]),
              let version = Int64.fromDatabaseValue(values[4]) else {
            throw DatabaseError(message: "players_digest_toggle: a player's value is missing")
        }
        let hash = PlayersDigest.hash(uuidText: uuid, name: name, score: score, version: version)
        return Int64(bitPattern: UInt64(bitPattern: checksum) ^ hash)
    }

    /// The migration that keeps the digest of the live players in the
    /// counter's row (`playerCount`, `checksum`), in the transaction of
    /// every write, whatever statement makes it: it computes it once from
    /// the players, and triggers follow each insert, update and delete.
    static func addDigest(_ db: Database) throws {
        try db.alter(table: "changeCounter") { t in
            t.add(column: "playerCount", .integer).notNull().defaults(to: 0)
            t.add(column: "checksum", .integer).notNull().defaults(to: 0)
        }
        try db.execute(sql: """
            CREATE TRIGGER player_digest_insert AFTER INSERT ON player BEGIN
                UPDATE changeCounter SET playerCount = playerCount + 1,
                    checksum = players_digest_toggle(checksum, NEW.uuid, NEW.name, NEW.score, NEW.version);
            END;
            CREATE TRIGGER player_digest_delete AFTER DELETE ON player BEGIN
                UPDATE changeCounter SET playerCount = playerCount - 1,
                    checksum = players_digest_toggle(checksum, OLD.uuid, OLD.name, OLD.score, OLD.version);
            END;
            CREATE TRIGGER player_digest_update AFTER UPDATE ON player BEGIN
                UPDATE changeCounter SET checksum = players_digest_toggle(
                    players_digest_toggle(checksum, OLD.uuid, OLD.name, OLD.score, OLD.version),
                    NEW.uuid, NEW.name, NEW.score, NEW.version);
            END;
            """)
        let digest = try recomputedDigest(db)
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

    /// The digest of the live players, computed from every one of them.
    static func recomputedDigest(_ db: Database) throws -> PlayersDigest {
        var players = 0
        var checksum: UInt64 = 0
        let rows = try Row.fetchCursor(db, sql: "SELECT uuid, name, score, version FROM player")
        while let row = try rows.next() {
            players += 1
            checksum ^= PlayersDigest.hash(uuidText: row[0], name: row[1], score: row[2], version: row[3])
        }
        return PlayersDigest(players: players, checksum: checksum)
    }

    /// The digest that the counter's row holds, and the one computed from
    /// every live player: the same, unless the players were written
    /// behind the triggers' back.
    public func digests() throws -> (stored: PlayersDigest, recomputed: PlayersDigest) {
        try writer.read { db in (try Self.digest(db), try Self.recomputedDigest(db)) }
    }
}
