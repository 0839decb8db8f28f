/// The errors of the players database layer: a key that does not open the
/// file, players that do not exist, a database to import that is refused.
/// Their descriptions are one sentence, and never show a passphrase or key.
public struct AppDatabaseError: Error, CustomStringConvertible, Sendable {
    public let description: String

    /// Whether the passphrase or key does not open the file.
    public let isWrongKey: Bool

    /// The passphrase or key does not open the file.
    static func wrongKey(path: String) -> AppDatabaseError {
        AppDatabaseError(
            description: "cannot open the players database at \(path): the passphrase or key is wrong, or the file is not an encrypted players database",
            isWrongKey: true)
    }

    /// Some players do not exist.
    static func missingPlayers(_ ids: [Int64]) -> AppDatabaseError {
        AppDatabaseError(
            description: "no player with id \(ids.map(String.init).joined(separator: ", ")): nothing was changed",
            isWrongKey: false)
    }
}
