import PlayersShared
import SyncSchema

extension SyncSchema {
    /// Notebooks (server wins), their notes (merged by column), the notes'
    /// comments (deleted with their note), pins that outlive their note
    /// (set null), and shares that keep their notebook (restrict).
    public static let testNotes = try! SyncSchema(tables: [
        SyncTable(name: "notebook", primaryKey: "id", conflicts: .serverWins, columns: [
            SyncColumn(name: "id", type: .uuid, isRequired: true),
            SyncColumn(name: "name", type: .text, isRequired: true, maximumLength: 100),
        ]),
        SyncTable(name: "note", primaryKey: "id", conflicts: .mergeByColumn, columns: [
            SyncColumn(name: "id", type: .uuid, isRequired: true),
            SyncColumn(name: "notebook", type: .uuid, isRequired: true, references: SyncReference(table: "notebook", onDelete: .cascade)),
            SyncColumn(name: "title", type: .text, isRequired: true, maximumLength: 200),
            SyncColumn(name: "body", type: .text, maximumLength: 1_000),
        ]),
        SyncTable(name: "comment", primaryKey: "id", conflicts: .serverWins, columns: [
            SyncColumn(name: "id", type: .uuid, isRequired: true),
            SyncColumn(name: "note", type: .uuid, isRequired: true, references: SyncReference(table: "note", onDelete: .cascade)),
            SyncColumn(name: "text", type: .text, isRequired: true, maximumLength: 200),
        ]),
        SyncTable(name: "pin", primaryKey: "id", conflicts: .serverWins, columns: [
            SyncColumn(name: "id", type: .uuid, isRequired: true),
            SyncColumn(name: "note", type: .uuid, references: SyncReference(table: "note", onDelete: .setNull)),
            SyncColumn(name: "label", type: .text, isRequired: true, maximumLength: 50),
        ]),
        SyncTable(name: "share", primaryKey: "id", conflicts: .serverWins, columns: [
            SyncColumn(name: "id", type: .uuid, isRequired: true),
            SyncColumn(name: "notebook", type: .uuid, isRequired: true, references: SyncReference(table: "notebook", onDelete: .restrict)),
        ]),
    ])
}

extension SyncSchema {
    /// Notebooks that their creator owns, their notes (the notebook's
    /// group), memberships that share a notebook with a user (Notes' rules
    /// of access), a diary of each user's own, and a board every user
    /// reads and editors write.
    public static let testUsers = try! SyncSchema(tables: [
        SyncTable(name: "notebook", primaryKey: "id", conflicts: .serverWins, columns: [
            SyncColumn(name: "id", type: .uuid, isRequired: true),
            SyncColumn(name: "name", type: .text, isRequired: true, maximumLength: 100),
        ], access: .owner),
        SyncTable(name: "note", primaryKey: "id", conflicts: .mergeByColumn, columns: [
            SyncColumn(name: "id", type: .uuid, isRequired: true),
            SyncColumn(name: "notebook", type: .uuid, isRequired: true, references: SyncReference(table: "notebook", onDelete: .cascade)),
            SyncColumn(name: "title", type: .text, isRequired: true, maximumLength: 200),
        ], access: .group(column: "notebook")),
        SyncTable(name: "member", primaryKey: "id", conflicts: .serverWins, columns: [
            SyncColumn(name: "id", type: .uuid, isRequired: true),
            SyncColumn(name: "notebook", type: .uuid, isRequired: true, references: SyncReference(table: "notebook", onDelete: .cascade)),
            SyncColumn(name: "user", type: .text, isRequired: true, maximumLength: 200),
        ], access: .membership(group: "notebook", user: "user")),
        SyncTable(name: "diary", primaryKey: "id", conflicts: .serverWins, columns: [
            SyncColumn(name: "id", type: .uuid, isRequired: true),
            SyncColumn(name: "text", type: .text, isRequired: true, maximumLength: 200),
        ], access: .owner),
        SyncTable(name: "board", primaryKey: "id", conflicts: .serverWins, columns: [
            SyncColumn(name: "id", type: .uuid, isRequired: true),
            SyncColumn(name: "text", type: .text, isRequired: true, maximumLength: 200),
        ], access: .shared(writers: ["editor"])),
    ])
}

extension SyncSchema {
    /// ``testUsers`` with its diaries end-to-end: each user's own rows,
    /// sealed, that the server stores as their server view.
    public static let testUsersWithSealedDiaries = try! SyncSchema(tables: testUsers.tables.map { table in
        guard table.name == "diary" else { return table }
        return SyncTable(name: table.name, primaryKey: table.primaryKey, conflicts: table.conflicts, columns: table.columns,
                         access: table.access, isEndToEnd: true)
    })
}

extension SyncSchema {
    /// ``testUsers`` with its notebooks, notes and diaries end-to-end (notes
    /// then server-wins, as such a table must be): the server routes them by
    /// owner and group, and reads none of their columns.
    public static let testUsersSealed = try! SyncSchema(tables: testUsers.tables.map { table in
        guard ["notebook", "note", "diary"].contains(table.name) else { return table }
        return SyncTable(name: table.name, primaryKey: table.primaryKey, conflicts: .serverWins, columns: table.columns,
                         access: table.access, isEndToEnd: true)
    })
}

extension SyncSchema {
    /// The test declaration of the app's next version: notebooks gain an
    /// icon and notes a color, both nullable, as a later release adds
    /// columns to tables that devices of the earlier one still sync.
    public static let testNotesNextVersion = try! SyncSchema(tables: testNotes.tables.map { table in
        let added: [SyncColumn] = switch table.name {
        case "notebook": [SyncColumn(name: "icon", type: .text, maximumLength: 20)]
        case "note": [SyncColumn(name: "color", type: .text, maximumLength: 20)]
        default: []
        }
        return SyncTable(name: table.name, primaryKey: table.primaryKey, conflicts: table.conflicts, columns: table.columns + added)
    })

    /// Players' table beside ``testNotes``' tables: a server of two apps.
    public static let playersAndTestNotes = try! SyncSchema(tables: PlayersSchema.schema.tables + testNotes.tables)
}
