/// Who reads and writes a table's rows on a server that knows its users
/// (`players-server --auth jwt`): the table's `access` in a declaration of
/// format 2. Such a server refuses to start with a table that has none:
/// access is denied by default. A server of one shared token ignores it.
///
/// ```json
/// { "name": "player", …, "access": { "rule": "shared", "writers": ["editor"] } }
/// ```
///
/// ```swift
/// SyncTable(name: "player", primaryKey: "id", conflicts: .serverWins, columns: columns,
///           access: .shared(writers: ["editor"]))
/// ```
public enum SyncTableAccess: Sendable, Hashable {
    /// Every user reads every row; writing needs one of these roles (a
    /// token's `roles`): a leaderboard.
    case shared(writers: [String])

    /// The rules' names, as a declaration writes them.
    enum Rule: String, CaseIterable {
        case shared
    }

    /// Throws the first rule of an access that this one breaks.
    func check(table: String) throws(SyncSchemaError) {
        switch self {
        case .shared(let writers):
            guard !writers.isEmpty, writers.allSatisfy({ !$0.isEmpty }), Set(writers).count == writers.count else {
                throw .invalidWriters(table: table)
            }
        }
    }
}
