import Foundation
import SyncSchema

/// The tables that Notes syncs, declared once for the app and for the
/// server (`notes schema` prints it for `players-server --schema`):
/// notebooks (the server's version wins a conflict) and their notes (edits
/// of different columns both survive).
public enum NotesSchema {
    /// The declaration, as JSON.
    public static let json = Data("""
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

        """.utf8)

    /// The declaration, read and checked.
    public static let declaration: SyncSchema = {
        do {
            return try SyncSchema(json: json)
        } catch {
            fatalError("Notes' own declaration is refused: \(error)")
        }
    }()
}
