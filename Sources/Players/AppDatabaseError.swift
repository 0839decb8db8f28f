/// The errors of the players database layer: a key that does not open the
/// file, players that do not exist, a database to import that is refused.
/// Their descriptions are one sentence, and never show a passphrase or key.
public struct AppDatabaseError: Error, CustomStringConvertible, Sendable {
    public let description: String

    /// Whether the passphrase or key does not open the file.
    public let isWrongKey: Bool

    /// Whether the key opens nothing: the file does not decrypt with it
    /// (another key's file, or not an encrypted database at all), where
    /// the other wrong-key errors name what the file is.
    public var isKeyMismatch = false

    /// The passphrase or key does not open the file.
    static func wrongKey(path: String) -> AppDatabaseError {
        AppDatabaseError(
            description: "cannot open the players database at \(path): the passphrase or key is wrong, or the file is not an encrypted players database",
            isWrongKey: true, isKeyMismatch: true)
    }

    /// The file is a plaintext SQLite database.
    public static func plaintext(path: String) -> AppDatabaseError {
        AppDatabaseError(
            description: "\(path) is a plaintext SQLite database, not an encrypted players database: "
                + "import its players into a new encrypted database with 'players encrypt \(path) --database NEW.db'",
            isWrongKey: true)
    }

    /// The key opens the file, but it holds another schema than the
    /// players': nothing was written to it.
    static func notPlayers(path: String, kind: DatabaseFileKind) -> AppDatabaseError {
        let description = switch kind {
        case .playersServer:
            "\(path) is a players-server database, not a players database: 'players' keeps its own (--database), "
                + "and gets the server's players with 'players sync'; the file was not changed"
        case .other(let tables):
            "\(path) is an encrypted SQLite database of another application (tables "
                + "\(tables.prefix(5).joined(separator: ", "))\(tables.count > 5 ? ", …" : "")), not a players database: "
                + "give the path of a players database, or create one with 'players init --database NEW.db'; the file was not changed"
        case .empty, .players:
            preconditionFailure("a new or players database is not refused")
        }
        return AppDatabaseError(description: description, isWrongKey: true)
    }

    /// Some players do not exist.
    static func missingPlayers(_ ids: [Int64]) -> AppDatabaseError {
        AppDatabaseError(
            description: "no player with id \(ids.map(String.init).joined(separator: ", ")): nothing was changed",
            isWrongKey: false)
    }
}
