import CipherDB
import Foundation
import PlayersShared
import SyncEngine

// MARK: - Conflicts

extension AppDatabase {
    /// The local values that lost to the server's, oldest first.
    public func conflicts() throws -> [PlayerConflict] {
        try reader.read { db in
            try SyncConflict.filter(Column("table_name") == PlayersSchema.player.name).order(Column("id")).fetchAll(db)
                .map(PlayerConflict.init)
        }
    }

    /// Settles the conflicts of a player, in one transaction; returns false
    /// when it has none
    /// (``CipherDB/Database/resolveSyncConflicts(table:rowID:keepLocal:schema:)``).
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
            try db.resolveSyncConflicts(table: PlayersSchema.player.name, rowID: uuid, keepLocal: keepLocal, schema: PlayersSchema.schema)
        }
    }
}
