import CipherDB
import Foundation

/// Rekey and restore replace the database file: no other process may have
/// it open meanwhile.
extension DatabaseFileOperations {
    /// Moves the WAL content into the database file, then checks that no
    /// other process has the database open (its -wal file would remain).
    package static func checkpointAndCheckUnused(_ database: URL, key: DatabaseKeySource) throws {
        try withDatabase(at: database, key: key) { queue in
            try queue.writeWithoutTransaction { db in
                _ = try Row.fetchAll(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)")
            }
        }
        try checkUnused(database)
    }

    /// The last connection to close deletes the -wal file: if it is still
    /// there, another process is using the database.
    static func checkUnused(_ database: URL) throws {
        if FileManager.default.fileExists(atPath: database.path + "-wal") {
            throw DatabaseFileError.inUse(database: database.path)
        }
    }
}
