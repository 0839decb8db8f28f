import Players

/// Why the server's database file does not open: a key that does not open
/// it, a file of another program, a folder that is missing or that the
/// server cannot write. One sentence that says what the file is and what
/// to do; never a key or a passphrase.
public struct ServerDatabaseError: Error, CustomStringConvertible, Sendable {
    public let description: String

    static func wrongKey(path: String) -> ServerDatabaseError {
        ServerDatabaseError(description: "cannot open \(path): wrong key or not a players-server database: "
            + "give the key it was created with, or another --database")
    }

    static func plaintext(path: String) -> ServerDatabaseError {
        ServerDatabaseError(description: "\(path) is a plaintext SQLite database, not an encrypted players-server database: "
            + "give the server its own --database (a new path creates one); the file was not changed")
    }

    static func notServer(path: String, kind: DatabaseFileKind) -> ServerDatabaseError {
        let what = switch kind {
        case .players:
            "a players database (the 'players' command line's)"
        case .other(let tables):
            "an encrypted SQLite database of another application (tables "
                + "\(tables.prefix(5).joined(separator: ", "))\(tables.count > 5 ? ", …" : ""))"
        case .empty, .playersServer:
            preconditionFailure("a new or players-server database is not refused")
        }
        return ServerDatabaseError(description: "\(path) is \(what), not a players-server database: "
            + "give the server its own --database (a new path creates one); the file was not changed")
    }

    static func missingFolder(path: String, folder: String) -> ServerDatabaseError {
        ServerDatabaseError(description: "cannot create the database \(path): the folder \(folder) does not exist: "
            + "create it, or give another --database")
    }

    static func notCreated(_ error: DatabaseFileError) -> ServerDatabaseError {
        ServerDatabaseError(description: "\(error.description): give a --database in a folder that the server can write")
    }

    static func notWritable(path: String) -> ServerDatabaseError {
        ServerDatabaseError(description: "cannot open \(path) for writing: the server writes the file, and its -wal and -shm "
            + "files next to it: give a --database that it can write, in a folder that it can write")
    }
}
