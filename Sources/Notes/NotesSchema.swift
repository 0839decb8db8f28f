import Foundation
import SyncSchema

/// The tables that Notes syncs, declared once for the app and for the
/// server (`notes schema` prints it for `players-server --schema`):
/// notebooks and their notes, end-to-end (the server stores them sealed,
/// and its version wins a conflict), and whom each notebook is shared with.
///
/// The server knows its users (`--auth jwt`, which end-to-end tables
/// need): a notebook is its creator's (rule `owner`), its notes are the
/// notebook's (`group`), and a `notebook_member` row gives its member the
/// notebook and its notes (`membership`), which only the notebook's owner
/// writes.
public enum NotesSchema {
    /// The declaration, as JSON.
    public static let json = Data("""
        {
          "format": 3,
          "tables": [
            { "name": "notebook", "primaryKey": "id", "conflicts": "server-wins",
              "columns": [
                { "name": "id", "type": "uuid", "required": true },
                { "name": "name", "type": "text", "required": true, "trimmed": true, "maximumLength": 100 } ],
              "access": { "rule": "owner" }, "endToEnd": true },
            { "name": "note", "primaryKey": "id", "conflicts": "server-wins",
              "columns": [
                { "name": "id", "type": "uuid", "required": true },
                { "name": "notebook", "type": "uuid", "required": true,
                  "references": { "table": "notebook", "onDelete": "cascade" } },
                { "name": "title", "type": "text", "required": true, "maximumLength": 200 },
                { "name": "body", "type": "text", "maximumLength": 100000, "allowsControlCharacters": true } ],
              "access": { "rule": "group", "column": "notebook" }, "endToEnd": true },
            { "name": "notebook_member", "primaryKey": "id", "conflicts": "server-wins",
              "columns": [
                { "name": "id", "type": "uuid", "required": true },
                { "name": "notebook", "type": "uuid", "required": true,
                  "references": { "table": "notebook", "onDelete": "cascade" } },
                { "name": "member", "type": "text", "required": true, "trimmed": true, "maximumLength": 200 } ],
              "access": { "rule": "membership", "group": "notebook", "user": "member" } }
          ]
        }

        """.utf8)

    /// The declaration, read and checked.
    public static let declaration = read(json)

    /// The declaration of Notes' second release (access rules, notes
    /// merged by column, nothing end-to-end), as it was: the migration that
    /// installed it installs it still.
    static let secondRelease = read(Data("""
        {
          "format": 2,
          "tables": [
            { "name": "notebook", "primaryKey": "id", "conflicts": "server-wins",
              "columns": [
                { "name": "id", "type": "uuid", "required": true },
                { "name": "name", "type": "text", "required": true, "trimmed": true, "maximumLength": 100 } ],
              "access": { "rule": "owner" } },
            { "name": "note", "primaryKey": "id", "conflicts": "merge-by-column",
              "columns": [
                { "name": "id", "type": "uuid", "required": true },
                { "name": "notebook", "type": "uuid", "required": true,
                  "references": { "table": "notebook", "onDelete": "cascade" } },
                { "name": "title", "type": "text", "required": true, "maximumLength": 200 },
                { "name": "body", "type": "text", "maximumLength": 100000, "allowsControlCharacters": true } ],
              "access": { "rule": "group", "column": "notebook" } },
            { "name": "notebook_member", "primaryKey": "id", "conflicts": "server-wins",
              "columns": [
                { "name": "id", "type": "uuid", "required": true },
                { "name": "notebook", "type": "uuid", "required": true,
                  "references": { "table": "notebook", "onDelete": "cascade" } },
                { "name": "member", "type": "text", "required": true, "trimmed": true, "maximumLength": 200 } ],
              "access": { "rule": "membership", "group": "notebook", "user": "member" } }
          ]
        }

        """.utf8))

    /// The declaration of Notes' first release (notebooks and notes, no
    /// access rules), as it was: the migration that installed it installs
    /// it still (Docs/SyncEngine.md, "Evolving a declaration").
    static let firstRelease = read(Data("""
        {
          "format": 1,
          "tables": [
            { "name": "notebook", "primaryKey": "id", "conflicts": "server-wins",
              "columns": [
                { "name": "id", "type": "uuid", "required": true },
                { "name": "name", "type": "text", "required": true, "trimmed": true, "maximumLength": 100 } ] },
            { "name": "note", "primaryKey": "id", "conflicts": "merge-by-column",
              "columns": [
                { "name": "id", "type": "uuid", "required": true },
                { "name": "notebook", "type": "uuid", "required": true,
                  "references": { "table": "notebook", "onDelete": "cascade" } },
                { "name": "title", "type": "text", "required": true, "maximumLength": 200 },
                { "name": "body", "type": "text", "maximumLength": 100000, "allowsControlCharacters": true } ] }
          ]
        }
        """.utf8))

    private static func read(_ json: Data) -> SyncSchema {
        do {
            return try SyncSchema(json: json)
        } catch {
            fatalError("Notes' own declaration is refused: \(error)")
        }
    }
}
