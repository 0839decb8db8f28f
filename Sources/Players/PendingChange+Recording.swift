import CipherDB
import Foundation

// MARK: - Recording local changes

extension PendingChange {
    /// Records the save of `player` (inserted or changed) in the caller's
    /// transaction. An unsent save of the same player takes the new values
    /// in place: the server sees only the last of several offline edits.
    ///
    /// ```swift
    /// try player.insert(db)
    /// try PendingChange.recordSave(db, of: player)
    /// ```
    static func recordSave(_ db: Database, of player: Player) throws {
        if var last = try lastEntry(db, of: player.uuid), last.kind == .save, last.sentAt == nil {
            last.name = player.name
            last.score = player.score
            try last.update(db)
            return
        }
        var entry = PendingChange(playerUUID: player.uuid, kind: .save, name: player.name, score: player.score, baseVersion: player.version)
        try entry.insert(db)
    }

    /// Queues a save of every player that was never synced (no version)
    /// and has no change waiting, in the caller's transaction, and returns
    /// how many: such a player would otherwise never reach the server. It
    /// happens only when the outbox lost an entry behind the database
    /// layer's back; the sync calls it before it compares its players with
    /// the server's digest.
    public static func requeueUnsyncedPlayers(_ db: Database) throws -> Int {
        let players = try Player.fetchAll(db, sql: """
            SELECT * FROM player WHERE version IS NULL
            AND NOT EXISTS (SELECT 1 FROM pendingChange WHERE pendingChange.playerUUID = player.uuid)
            ORDER BY id
            """)
        for player in players {
            try recordSave(db, of: player)
        }
        return players.count
    }

    /// Records the deletion of the player, in the caller's transaction,
    /// before or after its row is deleted. A player never synced and never
    /// sent is forgotten, so the server never hears of it; otherwise its
    /// unsent saves give way to one delete.
    static func recordDelete(_ db: Database, uuid: UUID, version: Int64?) throws {
        let entries = PendingChange.filter(Columns.playerUUID == uuid.uuidString)
        let hasSentEntry = try entries.filter(Columns.sentAt != nil).isEmpty(db) == false
        try entries.filter(Columns.sentAt == nil).deleteAll(db)
        if version == nil && !hasSentEntry { return }
        var entry = PendingChange(playerUUID: uuid, kind: .delete, baseVersion: version)
        try entry.insert(db)
    }

    /// Records the deletion of every player of `request`, before their rows
    /// are deleted.
    static func recordDeletes(_ db: Database, of request: QueryInterfaceRequest<Player>) throws {
        // Writing the outbox while reading the player table is safe in
        // SQLite: the cursor holds no row in memory beyond the current one.
        let rows = try Row.fetchCursor(db, request.select(Player.Columns.uuid, Player.Columns.version))
        while let row = try rows.next() {
            try recordDelete(db, uuid: row[0], version: row[1])
        }
    }

    /// The newest entry of a player.
    static func lastEntry(_ db: Database, of uuid: UUID) throws -> PendingChange? {
        try PendingChange.filter(Columns.playerUUID == uuid.uuidString).order(Columns.id.desc).fetchOne(db)
    }
}
