import SyncSchema

/// The Players app's declaration of the table it syncs: the one place its
/// rules are written. ``PlayerValidator`` checks names and scores with its
/// columns, and a server given no `--schema` serves it.
///
/// ```swift
/// try PlayersSchema.name.validated(.text(" Arthur "))   // .text("Arthur")
/// ```
public enum PlayersSchema {
    /// A player's name: 1 to 100 characters once trimmed, at most 400
    /// UTF-8 bytes, no control character.
    public static let name = SyncColumn(name: "name", type: .text, isRequired: true, isTrimmed: true, maximumLength: 100, maximumBytes: 400)

    /// A player's score, from 0 to a billion.
    public static let score = SyncColumn(name: "score", type: .integer, isRequired: true, minimum: 0, maximum: 1_000_000_000)

    /// The role that may write players on a server of users (`--auth
    /// jwt`): everyone reads the leaderboard.
    public static let editorRole = "editor"

    /// The `player` table: a UUID made on the device, a score, a name; the
    /// server's row wins a conflict, which the device keeps; shared: every
    /// user reads, an ``editorRole`` writes. (The score before the name: a
    /// row's digest hashes its values in this order,
    /// `uuid|version|score|name`, as Players' digest always did.)
    public static let player = SyncTable(
        name: "player", primaryKey: "uuid", conflicts: .serverWins,
        columns: [SyncColumn(name: "uuid", type: .uuid, isRequired: true), score, name],
        access: .shared(writers: [editorRole]))

    /// The declaration: `player` alone. (`try!`: a constant that
    /// PlayersSchemaTests reads back from its JSON.)
    public static let schema = try! SyncSchema(tables: [player])
}
