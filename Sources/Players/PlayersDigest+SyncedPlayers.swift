import CipherDB
import Foundation
import PlayersProtocol
import PlayersStorage

extension PlayersDigest {
    /// The digest of the players that this database holds as synced (those
    /// with a version), as its triggers keep it (`syncedPlayerDigest`,
    /// migration `v6-sync-digest`): one row read. When no local change
    /// waits in the outbox, a server's digest at the stored cursor must be
    /// this one (Docs/Sync.md).
    ///
    /// ```swift
    /// let digest = try await appDatabase.reader.read { db in try PlayersDigest.ofSyncedPlayers(db) }
    /// ```
    public static func ofSyncedPlayers(_ db: Database) throws -> PlayersDigest {
        guard let row = try Row.fetchOne(db, sql: "SELECT players, checksum FROM syncedPlayerDigest") else {
            throw DatabaseError(message: "the digest of the synced players is missing")
        }
        return PlayersDigest(players: row[0], checksum: UInt64(bitPattern: row[1] as Int64))
    }

    /// The digest of the synced players computed from every one of them:
    /// ``ofSyncedPlayers(_:)`` unless the players were written without
    /// the triggers.
    public static func recomputedOfSyncedPlayers(_ db: Database) throws -> PlayersDigest {
        try recomputed(db, sql: "SELECT uuid, name, score, version FROM player WHERE version IS NOT NULL")
    }

    /// The migration that keeps the digest of the synced players in the
    /// one row of `syncedPlayerDigest`, by triggers, in the transaction of
    /// every write of a player, whatever statement makes it.
    static func addSyncedPlayerDigest(_ db: Database) throws {
        db.add(function: toggleFunction)
        try db.create(table: "syncedPlayerDigest") { t in
            t.primaryKey("id", .integer).check { $0 == 1 }
            t.column("players", .integer).notNull()
            t.column("checksum", .integer).notNull()
        }
        let digest = try recomputedOfSyncedPlayers(db)
        try db.execute(sql: "INSERT INTO syncedPlayerDigest (id, players, checksum) VALUES (1, ?, ?)",
                       arguments: [digest.players, Int64(bitPattern: digest.checksumValue ?? 0)])
        try db.execute(sql: triggersSQL(prefix: "player_syncedDigest", table: "syncedPlayerDigest", playersColumn: "players",
                                        checksumColumn: "checksum") { row in "\(row).version IS NOT NULL" })
    }
}
