import CipherDB
import Foundation
import Players

extension DatabaseFileOperations {
    /// Replaces the database with a verified copy of a backup, re-encrypted
    /// with the database's key.
    ///
    /// The copy is written next to the database and verified; the current
    /// database gets a second name, `*.before-restore` (a hard link), then
    /// the copy is renamed over it. At every moment, even after a crash,
    /// the database's path holds the current database or the restored one.
    /// `*.before-restore` is removed once the restored database opens with
    /// its key; if it does not, the current database is renamed back.
    public static func restore(_ backup: URL, backupKey: DatabaseKeySource?, into database: URL, key: DatabaseKeySource) throws {
        guard FileManager.default.fileExists(atPath: backup.path) else {
            throw PlayersFileError.noBackup(backup.path)
        }
        if databaseFiles(at: database).contains(where: { isSameFile(backup, $0) }) {
            throw PlayersFileError.backupIsTheDatabase(backup.path)
        }
        let unreadable = PlayersFileError.backupUnreadable(backup.path)
        do {
            try checkForeignSchema(of: backup, key: backupKey)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw unreadable
        }
        let previous = URL(fileURLWithPath: database.path + ".before-restore")
        var keptPrevious = false
        do {
            try writeVerified(to: database) { temporary in
                do {
                    try writeExport(from: backup, sourceKey: backupKey, into: temporary, key: key)
                } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
                    throw unreadable
                }
                try checkpointAndCheckUnused(database, key: key)
                try keepPrevious(database, as: previous)
                keptPrevious = true
            }
            let restored = try withDatabase(at: database, key: key) { try $0.read(tableCounts) }
            guard restored["player"] != nil else {
                throw PlayersFileError.backupWithoutPlayers
            }
            unlink(previous.path)
        } catch {
            guard keptPrevious else { throw error }
            // Put the previous database back, in one rename.
            guard rename(previous.path, database.path) == 0 else {
                throw PlayersFileError.restoreFailedPreviousKept("\(error)", previous: previous.path)
            }
            throw PlayersFileError.restoreFailedPreviousPutBack("\(error)")
        }
    }

    /// Gives the database a second name, `previous`, replacing an older
    /// one: a hard link, so that the database never leaves its path.
    private static func keepPrevious(_ database: URL, as previous: URL) throws {
        removeFiles(at: previous)
        guard link(database.path, previous.path) == 0 else {
            throw DatabaseFileError.system(.keepPrevious, path: previous.path)
        }
        try sync(database.deletingLastPathComponent().path)
    }

    // MARK: - Foreign files

    /// Refuses a database that comes from elsewhere (a backup to restore, a
    /// plaintext database to import) unless each entry of its schema is
    /// one that the players migrations create: nothing else in it
    /// (trigger, view, virtual table) is ever run, and SQLite 3.15.2's
    /// known bugs in FTS3 and R-Tree cannot be reached.
    public static func checkForeignSchema(of url: URL, key: DatabaseKeySource?) throws {
        try withDatabase(at: url, key: key) { queue in
            try queue.read { db in try checkForeignSchema(db, of: url) }
        }
    }

    /// The check of ``checkForeignSchema(of:key:)``, on the connection of
    /// an open database from `url`.
    static func checkForeignSchema(_ db: Database, of url: URL) throws {
        let unknown = try AppDatabase.unknownSchemaEntries(db)
        guard unknown.isEmpty else {
            throw PlayersFileError.notPlayersSchema(path: url.path, unknown: unknown.map(\.description))
        }
    }
}
