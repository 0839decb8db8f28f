import AppFiles
import PlayersShared

/// Why the server's database file does not open, or cannot be backed up:
/// a key that does not open it, a file of another program, a folder that
/// is missing or that the server cannot write, an identity missing.
/// Callers tell them apart by case; each description is one sentence that
/// says what the file is and what to do, never a key or a passphrase.
public enum ServerDatabaseError: Error, CustomStringConvertible, Sendable {
    case wrongKey(path: String)
    case plaintext(path: String)
    /// The key opens the file, but it is another program's (`kind`).
    case notServer(path: String, kind: DatabaseFileKind)
    case missingFolder(path: String, folder: String)
    /// The file could not be created (`error` says why).
    case notCreated(DatabaseFileError)
    case notWritable(path: String)
    /// A database of a server too old to have an identity, which a backup
    /// needs.
    case noIdentityYet
    /// A database whose identity another program removed.
    case missingIdentity

    public var description: String {
        switch self {
        case .wrongKey(let path):
            return "cannot open \(path): wrong key or not a players-server database: give the key it was created with, or another --database"
        case .plaintext(let path):
            return "\(path) is a plaintext SQLite database, not an encrypted players-server database: "
                + "give the server its own --database (a new path creates one); the file was not changed"
        case .notServer(let path, let kind):
            let what = switch kind {
            case .players:
                "a players database (the 'players' command line's)"
            case .other(let tables):
                "an encrypted SQLite database of another application (tables "
                    + "\(tables.prefix(5).joined(separator: ", "))\(tables.count > 5 ? ", …" : ""))"
            case .empty, .playersServer:
                preconditionFailure("a new or players-server database is not refused")
            }
            return "\(path) is \(what), not a players-server database: give the server its own --database (a new path creates one); the file was not changed"
        case .missingFolder(let path, let folder):
            return "cannot create the database \(path): the folder \(folder) does not exist: create it, or give another --database"
        case .notCreated(let error):
            return "\(error.description): give a --database in a folder that the server can write"
        case .notWritable(let path):
            return "cannot open \(path) for writing: the server writes the file, and its -wal and -shm "
                + "files next to it: give a --database that it can write, in a folder that it can write"
        case .noIdentityYet:
            return "the database was made by an older players-server, and has no identity yet: start players-server on it once, then back it up"
        case .missingIdentity:
            return "the server database has no identity: another program changed it; restore it from a backup"
        }
    }
}
