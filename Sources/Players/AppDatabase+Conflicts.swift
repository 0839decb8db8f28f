import CipherDB
import Foundation

// MARK: - Conflicts

extension AppDatabase {
    /// The local values that lost to the server's, oldest first.
    public func conflicts() throws -> [PlayerConflict] {
        try reader.read { db in try PlayerConflict.order(PlayerConflict.Columns.id).fetchAll(db) }
    }

    /// Settles the conflicts of a player, in one transaction; returns false
    /// when it has none.
    ///
    /// - `keepLocal`: the latest local value that lost becomes the player's
    ///   value again, as a new local change that the next sync pushes on
    ///   top of the server's current version (a local deletion deletes the
    ///   player again; a local value of a player the server deleted
    ///   brings it back).
    /// - otherwise the server's value stays, and the local ones are dropped.
    ///
    /// ```swift
    /// try appDatabase.resolveConflicts(of: uuid, keepLocal: true)
    /// ```
    @discardableResult
    public func resolveConflicts(of uuid: UUID, keepLocal: Bool) throws -> Bool {
        try dbWriter.write { db in
            let conflicts = PlayerConflict.filter(PlayerConflict.Columns.playerUUID == uuid.uuidString)
            guard let latest = try conflicts.order(PlayerConflict.Columns.id.desc).fetchOne(db) else { return false }
            try conflicts.deleteAll(db)
            guard keepLocal else { return true }
            let current = try Player.filter(Player.Columns.uuid == uuid.uuidString).fetchOne(db)
            switch (current, latest.localName, latest.localScore) {
            case (var player?, let name?, let score?):
                if try player.updateChanges(db, modify: { $0.name = name; $0.score = score }) {
                    try PendingChange.recordSave(db, of: player)
                }
            case (nil, let name?, let score?):
                // The server deleted the player: it comes back, on top of
                // the version of its deletion.
                var player = Player(uuid: uuid, name: name, score: score, version: latest.serverVersion)
                try player.insert(db)
                try PendingChange.recordSave(db, of: player)
            case (let player?, _, _):
                try player.delete(db)
                try PendingChange.recordDelete(db, uuid: uuid, version: player.version)
            case (nil, _, _):
                break
            }
            return true
        }
    }
}
