import Foundation
import PlayersShared

/// The errors of the players database layer: a key that does not open the
/// file, players that do not exist, a database to import or a change to
/// push that is refused. Callers tell them apart by case; each description
/// is one sentence, and never shows a passphrase or key.
///
/// ```swift
/// catch let error as AppDatabaseError where error.isWrongKey { … }
/// ```
public enum AppDatabaseError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The passphrase or key does not open the file at `path`.
    case wrongKey(path: String)
    /// The file is a plaintext SQLite database.
    case plaintext(path: String)
    /// The key opens the file, but it holds another schema than the
    /// players' (`kind`): nothing was written to it.
    case notPlayers(path: String, kind: DatabaseFileKind)
    /// Some players do not exist: nothing was changed.
    case missingPlayers([Int64])
    /// A database to import whose player table lacks a column.
    case importLacksColumns
    /// A player of a database to import that breaks a rule of players.
    case notImportable(playerID: Int64, source: String, PlayerValidationError)
    /// A pending change that breaks a rule of players, named by its
    /// player's id when it has one: nothing was sent.
    case notPushable(playerID: Int64?, uuid: UUID, PlayerValidationError)
    /// A queued change of the release before the sync engine whose ids
    /// are not UUIDs: the migration `v7-sync-engine` stopped, and nothing
    /// was changed.
    case unreadableOutboxEntry(mutationID: String)

    /// Whether the passphrase or key does not open the file.
    public var isWrongKey: Bool {
        switch self {
        case .wrongKey, .plaintext, .notPlayers: true
        case .missingPlayers, .importLacksColumns, .notImportable, .notPushable, .unreadableOutboxEntry: false
        }
    }

    /// Whether the key opens nothing: the file does not decrypt with it
    /// (another key's file, or not an encrypted database at all), where
    /// the other wrong-key errors name what the file is.
    public var isKeyMismatch: Bool {
        if case .wrongKey = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .wrongKey(let path):
            return "cannot open the players database at \(path): the passphrase or key is wrong, or the file is not an encrypted players database"
        case .plaintext(let path):
            return "\(path) is a plaintext SQLite database, not an encrypted players database: "
                + "import its players into a new encrypted database with 'players encrypt \(path) --database NEW.db'"
        case .notPlayers(let path, .playersServer):
            return "\(path) is a players-server database, not a players database: 'players' keeps its own (--database), "
                + "and gets the server's players with 'players sync'; the file was not changed"
        case .notPlayers(let path, .other(let tables)):
            return "\(path) is an encrypted SQLite database of another application (tables "
                + "\(tables.prefix(5).joined(separator: ", "))\(tables.count > 5 ? ", …" : "")), not a players database: "
                + "give the path of a players database, or create one with 'players init --database NEW.db'; the file was not changed"
        case .notPlayers(_, .empty), .notPlayers(_, .players):
            preconditionFailure("a new or players database is not refused")
        case .missingPlayers(let ids):
            return "no player with id \(ids.map(String.init).joined(separator: ", ")): nothing was changed"
        case .importLacksColumns:
            return "the player table of the imported database lacks the id, name or score column"
        case .notImportable(let id, let source, let error):
            return "player \(id) of \(source) cannot be imported: its \(error.field) \(error.problem), and it must be \(error.rule); "
                + "correct it in \(source) and try again (nothing was created)"
        case .notPushable(let id, let uuid, let error):
            let player = id.map { "player \($0)" } ?? "the player \(uuid.uuidString)"
            return "\(player) cannot be pushed: its \(error.field) \(error.problem), and it must be \(error.rule); "
                + "correct it with 'players edit' and sync again (nothing was sent)"
        case .unreadableOutboxEntry(let mutationID):
            return "the queued change \(mutationID.debugDescription) has no valid player or mutation id, so this database cannot "
                + "move to the sync engine: delete that row of its pendingChange table with the sqlcipher shell, then open it again "
                + "(nothing was changed)"
        }
    }
}
