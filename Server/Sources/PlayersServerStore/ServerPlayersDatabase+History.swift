import CipherDB
import Foundation
import PlayersProtocol
import SyncServer

extension ServerPlayersDatabase {
    /// Marks a copy of a server database as a backup (`players-server
    /// backup` does, on the copy only): a server that opens it, once it is
    /// restored by any means (a copy over the database file included),
    /// begins a new epoch at its counter. So a client whose cursor is from
    /// after the backup never gets a delta of a history that went back:
    /// its cursor names the epoch before (Docs/Server.md, Backups).
    ///
    /// Throws for a database that this version of the server never opened
    /// (it has no identity yet): the server must open it once first.
    ///
    /// ```swift
    /// try DatabaseFileOperations.backup(reader: source, to: destination, destinationKey: key,
    ///                                   markingCopy: ServerPlayersDatabase.markAsBackupCopy)
    /// ```
    public static func markAsBackupCopy(_ db: Database) throws {
        guard try db.tableExists("serverIdentity") else {
            throw ServerDatabaseError.noIdentityYet
        }
        try db.execute(sql: "UPDATE serverIdentity SET isBackupCopy = 1")
    }

    /// In the opening transaction: begins a new epoch, at the counter, if
    /// the database is a backup copy, which it then no longer is; returns
    /// the history.
    static func beginEpochIfRestored(_ db: Database) throws -> ServerHistory {
        let identity = try Row.fetchOne(db, sql: "SELECT server, isBackupCopy FROM serverIdentity WHERE id = 1")
        guard let identity, let server = UUID(uuidString: identity["server"]) else {
            throw ServerDatabaseError.missingIdentity
        }
        if identity["isBackupCopy"] as Bool {
            try db.execute(sql: """
                INSERT INTO historyEpoch (position, epoch, start)
                SELECT MAX(position) + 1, ?, (SELECT value FROM changeCounter) FROM historyEpoch
                """, arguments: [PlayersCursor.newEpoch()])
            try db.execute(sql: "UPDATE serverIdentity SET isBackupCopy = 0")
        }
        let epochs = try Row.fetchAll(db, sql: "SELECT epoch, start FROM historyEpoch ORDER BY position").map {
            PlayersEpoch(epoch: $0["epoch"], start: $0["start"])
        }
        return ServerHistory(server: server, epochs: epochs)
    }
}
