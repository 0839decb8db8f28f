import AppFiles
import CipherDB
import Foundation
import PlayersShared
import SyncSchema
import SyncServerEmbedded

/// The server's encrypted database file: the engine's store of the
/// server's tables, Players' among them.
public enum ServerDatabaseFile {
    /// The migration that marks a server database for the releases of
    /// players-server before the engine's store, which kept players in
    /// tables of their own with GRDB's migrations: they refuse it as a
    /// newer program's rather than make those tables anew, empty.
    static let engineStoreMigration = "server-v5-engine-store"

    /// The decrypted pages each connection to the file keeps, in KiB (64
    /// MiB; SQLite's default is 2 MiB): the users' rows are read from
    /// every part of the file (1,000 users of 100 notes: 40 MiB of the
    /// index of partitions), and a page kept is neither read nor
    /// decrypted again.
    public static let pageCacheKiB = 65_536

    /// What every connection to the server's encrypted database at `path`
    /// takes, the server's and a backup's: `key`, then the size of its
    /// pages (``ServerDatabasePageSize``), and a wait of up to 5 seconds
    /// for the lock of another connection's write. Throws
    /// ``ServerDatabaseError/plaintext(path:)`` for a plaintext SQLite
    /// file, and `SQLITE_NOTADB` when `key` does not open the file.
    public static func configuration(ofFileAt path: String, key: DatabaseKeySource) throws -> Configuration {
        if DatabaseFileKind.isPlaintextSQLite(atPath: path) {
            throw ServerDatabaseError.plaintext(path: path)
        }
        var configuration = Configuration()
        configuration.busyMode = .timeout(5)
        key.configure(&configuration)
        try ServerDatabasePageSize.of(fileAt: path, configuration: configuration).configure(&configuration)
        return configuration
    }

    /// Opens (or creates) the server's encrypted database at `path`, with
    /// `key` (``configuration(ofFileAt:key:)``), in WAL mode, migrates it
    /// and takes in the players of an earlier release
    /// (``PlayersServerAdoption``), then serves `schema`'s tables. A new
    /// file is private from its first byte (mode 0600, as its `-wal` and
    /// `-shm` files, which SQLite creates with its mode).
    ///
    /// Throws ``ServerDatabaseError`` when the key does not open the file,
    /// when the file is not a players-server database (a plaintext SQLite
    /// file, a `players` database, another application's), and when its
    /// folder is missing or cannot be written. A refused file keeps every
    /// byte: its kind is read on a read-only connection before the pool
    /// opens it, which would turn it to WAL mode.
    public static func open(atPath path: String, key: DatabaseKeySource, schema: SyncSchema) throws -> ServerSyncDatabase {
        let isNew = !FileManager.default.fileExists(atPath: path)
        if isNew { try createFile(atPath: path) }
        do {
            var configuration = try configuration(ofFileAt: path, key: key)
            configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA cache_size = -\(pageCacheKiB)") }
            if !isNew { try checkKind(atPath: path, configuration: configuration) }
            let pool = try DatabasePool(path: path, configuration: configuration)
            let database = try ServerSyncDatabase(pool, schema: schema, adopting: PlayersServerAdoption.embedded)
            try pool.write { db in
                try db.execute(sql: "CREATE TABLE IF NOT EXISTS grdb_migrations (identifier TEXT NOT NULL PRIMARY KEY)")
                try db.execute(sql: "INSERT OR IGNORE INTO grdb_migrations (identifier) VALUES (?)", arguments: [engineStoreMigration])
            }
            return database
        } catch {
            // A new database that failed to open leaves no empty file.
            if isNew { unlink(path) }
            guard let code = (error as? DatabaseError)?.resultCode else { throw error }
            if code == .SQLITE_NOTADB { throw ServerDatabaseError.wrongKey(path: path) }
            if [.SQLITE_CANTOPEN, .SQLITE_READONLY, .SQLITE_PERM].contains(code) { throw ServerDatabaseError.notWritable(path: path) }
            throw error
        }
    }

    /// Creates the empty private file of a new database, in a folder that
    /// must exist: the server makes no folders.
    private static func createFile(atPath path: String) throws {
        // The folder as the path names it, for the message.
        let folder = (path as NSString).deletingLastPathComponent
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.isEmpty ? "." : folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw ServerDatabaseError.missingFolder(path: path, folder: folder)
        }
        do {
            try PrivateFile.createDatabaseFileIfMissing(at: URL(fileURLWithPath: path))
        } catch let error as DatabaseFileError {
            throw ServerDatabaseError.notCreated(error)
        }
    }

    /// Refuses a file that is not a players-server database (or a new,
    /// empty one).
    private static func checkKind(atPath path: String, configuration: Configuration) throws {
        switch try DatabaseFileKind.ofFile(atPath: path, configuration: configuration) {
        case .empty, .playersServer: break
        case let kind: throw ServerDatabaseError.notServer(path: path, kind: kind)
        }
    }
}
