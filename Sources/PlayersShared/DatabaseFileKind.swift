import CipherDB
import Foundation

/// What a database holds, told from its schema before anything is written
/// to it: a file given to the wrong program is refused with a sentence
/// that says what it is, instead of being migrated into a mixture of two
/// schemas, or failing later with "SQL logic error".
///
/// ```swift
/// switch try dbQueue.read(DatabaseFileKind.of) {
/// case .empty, .players: break                      // ours, or new
/// case .playersServer: print("a players-server database")
/// case .other(let tables): print("tables \(tables)")
/// }
/// ```
public enum DatabaseFileKind: Equatable, Sendable {
    /// No table yet: a new database.
    case empty
    /// The schema of the players migrations (the `players` command line,
    /// `AppDatabase`).
    case players
    /// The schema of `players-server`'s embedded store.
    case playersServer
    /// Tables of something else (sorted names, SQLite's own left out).
    case other(tables: [String])

    /// The kind of the database `db` is connected to, read from
    /// `sqlite_master` and the migrations table.
    ///
    /// See <https://www.sqlite.org/schematab.html>.
    public static func of(_ db: Database) throws -> DatabaseFileKind {
        let tables = try String.fetchAll(db, sql: """
            SELECT name FROM sqlite_master
            WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name <> 'grdb_migrations'
            ORDER BY name
            """)
        if tables.isEmpty { return .empty }
        let migrations = try db.tableExists("grdb_migrations")
            ? Set(try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations"))
            : []
        if migrations.contains(where: { $0.hasPrefix("server-") }) || tables.contains("sync_server_counter") { return .playersServer }
        if migrations.contains("v1") && tables.contains("player") { return .players }
        return .other(tables: tables)
    }

    /// The kind of the database file at `path`, read on a read-only
    /// connection keyed by `configuration`: the file keeps every byte,
    /// where opening a pool would turn it to WAL mode. Throws
    /// `SQLITE_NOTADB` when the key does not open it.
    public static func ofFile(atPath path: String, configuration: Configuration) throws -> DatabaseFileKind {
        var readOnly = configuration
        readOnly.readonly = true
        let dbQueue = try DatabaseQueue(path: path, configuration: readOnly)
        defer { try? dbQueue.close() }
        return try dbQueue.read(of)
    }

    /// The kind of the encrypted file at `path` when `key` opens it with
    /// the pages of the server's files (``ServerDatabasePageSize/current``),
    /// which a program that reads SQLCipher's default pages cannot open:
    /// a `players-server` database given to a client, told as such rather
    /// than as a wrong key. Nil when the key does not open it so.
    public static func ofServerFile(atPath path: String, key: DatabaseKeySource) -> DatabaseFileKind? {
        var configuration = Configuration()
        key.configure(&configuration)
        ServerDatabasePageSize.current.configure(&configuration)
        return try? ofFile(atPath: path, configuration: configuration)
    }

    /// Whether the file at `path` starts with the header of a plaintext
    /// SQLite database (`SQLite format 3\0`): an encrypted file never does,
    /// its first bytes are a random salt. Read through SQLite
    /// (``DatabaseFileHeader``): the process may hold connections to the
    /// file, whose locks a descriptor of our own would drop as it closes.
    ///
    /// See <https://www.sqlite.org/fileformat.html#the_database_header>.
    public static func isPlaintextSQLite(atPath path: String) -> Bool {
        DatabaseFileHeader.read(atPath: path, count: 16) == Array("SQLite format 3\u{0}".utf8)
    }
}
