/// Who reads and writes a table's rows on a server that knows its users
/// (`players-server --auth jwt`): the table's `access` in a declaration of
/// format 2. Such a server refuses to start with a table that has none:
/// access is denied by default. A server of one shared token ignores it.
///
/// Each row falls in one partition, which the server computes from the
/// row as stored and the user who created it, never from what a client
/// asks: every user's (``owner``), or one group's (``group(column:)``),
/// where a group is a row of an ``owner`` table that a ``membership(group:user:)``
/// table names. A user reads the rows of the shared tables, of their own
/// partition and of the groups they own or are members of.
///
/// ```json
/// { "name": "player", …, "access": { "rule": "shared", "writers": ["editor"] } }
/// { "name": "notebook", …, "access": { "rule": "owner" } }
/// { "name": "note", …, "access": { "rule": "group", "column": "notebookid" } }
/// { "name": "notebookmember", …, "access": { "rule": "membership", "group": "notebookid", "user": "username" } }
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

    /// A row belongs to the user who created it, who alone reads, writes
    /// and deletes it; when a membership table names the table, each row
    /// is a group, which its members read too.
    case owner

    /// A row belongs to the group its `column` names (a required reference
    /// to a row of an ``owner`` table): the group's owner and members read
    /// and write it, and a write may move it only to a group of theirs.
    case group(column: String)

    /// A row makes the user of its `user` column (a token's `sub`, required
    /// text) a member of the group its `group` column names (a required
    /// reference to a row of an ``owner`` table). Only the group's owner
    /// writes them; the group's owner and members read them.
    case membership(group: String, user: String)

    /// The rules' names, as a declaration writes them.
    enum Rule: String, CaseIterable {
        case shared
        case owner
        case group
        case membership
    }

    /// The keys of the rule's members in a declaration, beside `rule`.
    var keys: [String] {
        switch self {
        case .shared: ["writers"]
        case .owner: []
        case .group: ["column"]
        case .membership: ["group", "user"]
        }
    }

    /// The column that names the group of a row, for the rules that have one.
    public var groupColumn: String? {
        switch self {
        case .shared, .owner: nil
        case .group(let column): column
        case .membership(let group, _): group
        }
    }

    /// Throws the first rule of an access that this one breaks, on its own.
    func check(table: String) throws(SyncSchemaError) {
        switch self {
        case .shared(let writers):
            guard !writers.isEmpty, writers.allSatisfy({ !$0.isEmpty }), Set(writers).count == writers.count else {
                throw .invalidWriters(table: table)
            }
        case .owner, .group, .membership:
            return
        }
    }

    /// Throws the first rule that this access of `table` breaks among the
    /// declaration's tables: a group's column is a required reference to an
    /// owner table (deleted with it, or keeping it), a member's a required
    /// text.
    func check(_ table: SyncTable, among tables: [String: SyncTable]) throws(SyncSchemaError) {
        guard let groupColumn else { return }
        guard let column = table.column(groupColumn) else {
            throw .invalidAccess(table: table.name, "its group column \(groupColumn) is not declared")
        }
        guard column.isRequired, let reference = column.references, reference.onDelete != .setNull else {
            throw .invalidAccess(table: table.name, "its group column \(groupColumn) must be a required reference (cascade or restrict)")
        }
        guard reference.table != table.name, tables[reference.table]?.access == .owner else {
            throw .invalidAccess(table: table.name, "its group column \(groupColumn) must reference a table whose rule is owner")
        }
        if case .membership(_, let user) = self {
            guard let member = table.column(user), member.isRequired, member.type == .text, member.references == nil else {
                throw .invalidAccess(table: table.name, "its user column \(user) must be a declared, required text column")
            }
        }
    }
}
