import CipherDB
import Foundation
import PlayersShared

extension AppDatabase {
    /// The default database path: `$XDG_DATA_HOME/players/players.db`, or
    /// `~/.local/share/players/players.db` when `XDG_DATA_HOME` is not set
    /// (the XDG base directory convention).
    public static func defaultDatabaseURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        XDGBaseDirectory.data.url(environment: environment)
            .appendingPathComponent("players", isDirectory: true)
            .appendingPathComponent("players.db")
    }

    /// Opens (or creates) the encrypted players database, in WAL mode, and
    /// migrates it. The folder is created with mode 0700, a new database
    /// with mode 0600 (and so its `-wal` and `-shm` files). The key is loaded
    /// in `prepareDatabase`, when each connection opens, so that it stays
    /// in memory no longer than needed.
    ///
    /// Throws ``AppDatabaseError`` when the key does not open the file, and
    /// when the file is not an encrypted players database (a plaintext
    /// SQLite file, a players-server database, another application's).
    public static func open(
        at url: URL = defaultDatabaseURL(),
        key: DatabaseKeySource,
        configuration: Configuration = Configuration()) throws -> AppDatabase
    {
        let folder = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        var configuration = configuration
        key.configure(&configuration)
        configuration = makeConfiguration(configuration)
        let isNew = !FileManager.default.fileExists(atPath: url.path)
        if isNew { try PrivateFile.createDatabaseFileIfMissing(at: url) }
        do {
            if !isNew { try checkKind(at: url, configuration: configuration) }
            return try AppDatabase(DatabasePool(path: url.path, configuration: configuration), kindIsChecked: !isNew)
        } catch {
            // A new database that failed to open leaves no empty file.
            if isNew { unlink(url.path) }
            if let error = error as? DatabaseError, error.resultCode == .SQLITE_NOTADB {
                // A server's file, whose pages are of another size.
                if !isNew, let kind = DatabaseFileKind.ofServerFile(atPath: url.path, key: key) {
                    try refuseUnlessPlayers(kind, path: url.path)
                }
                throw AppDatabaseError.wrongKey(path: url.path)
            }
            throw error
        }
    }

    /// Refuses a file that is not a players database before the pool opens
    /// it: opening a pool turns the file to WAL mode, which would change a
    /// byte of another application's database.
    private static func checkKind(at url: URL, configuration: Configuration) throws {
        if DatabaseFileKind.isPlaintextSQLite(atPath: url.path) {
            throw AppDatabaseError.plaintext(path: url.path)
        }
        try refuseUnlessPlayers(DatabaseFileKind.ofFile(atPath: url.path, configuration: configuration), path: url.path)
    }

    /// Opens the players database with a text passphrase (its UTF-8 bytes).
    public static func open(at url: URL = defaultDatabaseURL(), passphrase: @escaping @Sendable () throws -> String) throws -> AppDatabase {
        try open(at: url, key: .passphrase { Data(try passphrase().utf8) })
    }

    /// An empty in-memory database, for tests and previews.
    public static func empty() throws -> AppDatabase {
        try AppDatabase(DatabaseQueue(configuration: makeConfiguration()))
    }
}
