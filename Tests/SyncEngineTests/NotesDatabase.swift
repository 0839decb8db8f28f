import CipherDB
import Foundation
import SyncEngine
import SyncSchema
import TestSupport

/// Notes' database, as the engine's tests use it: notebooks and notes, by
/// Notes' declaration (a notebook's notes are deleted with it), the engine
/// installed, on a file encrypted with a raw key.
struct NotesDatabase {
    static let declaration = """
        {
          "format": 1,
          "tables": [
            { "name": "notebook", "primaryKey": "id", "conflicts": "server-wins",
              "columns": [
                { "name": "id", "type": "uuid", "required": true },
                { "name": "name", "type": "text", "required": true, "maximumLength": 100 },
                { "name": "colour", "type": "text", "maximumLength": 20 } ] },
            { "name": "note", "primaryKey": "id", "conflicts": "merge-by-column",
              "columns": [
                { "name": "id", "type": "uuid", "required": true },
                { "name": "notebook", "type": "uuid", "required": true, "references": { "table": "notebook", "onDelete": "cascade" } },
                { "name": "title", "type": "text", "required": true, "maximumLength": 200 },
                { "name": "body", "type": "text", "maximumLength": 100000 } ] }
          ]
        }
        """

    static let key = Data((0..<32).map { UInt8($0) &* 7 &+ 3 })

    let folder: TemporaryFolder
    let path: String
    let dbPool: DatabasePool
    let schema: SyncSchema

    init() throws {
        folder = try TemporaryFolder()
        path = folder.path("notes.sqlite")
        var configuration = Configuration()
        configuration.prepareDatabase { db in try db.useRawKey(Self.key) }
        dbPool = try DatabasePool(path: path, configuration: configuration)
        schema = try SyncSchema(json: Data(Self.declaration.utf8))
        try dbPool.write { db in
            try db.execute(sql: """
                CREATE TABLE notebook (id TEXT PRIMARY KEY NOT NULL, name TEXT NOT NULL, colour TEXT);
                CREATE TABLE note (id TEXT PRIMARY KEY NOT NULL,
                    notebook TEXT NOT NULL REFERENCES notebook(id) ON DELETE CASCADE,
                    title TEXT NOT NULL, body TEXT);
                """)
            try db.installSyncEngine(for: schema)
        }
    }

    /// The outbox's entries, in push order.
    func entries() throws -> [SyncOutboxEntry] {
        try dbPool.read { db in try SyncOutboxEntry.inPushOrder().fetchAll(db) }
    }

    /// What the server acknowledged: the entries sent, and the rows' versions.
    func markSent() throws {
        try dbPool.write { db in try db.execute(sql: "UPDATE sync_outbox SET sent_at = 1e9 WHERE sent_at IS NULL") }
    }

    func setServerVersion(_ version: Int64, of table: String, _ id: UUID) throws {
        try dbPool.write { db in
            try db.execute(sql: "INSERT OR REPLACE INTO sync_row (table_name, row_id, version) VALUES (?, ?, ?)",
                           arguments: [table, id.uuidString, version])
        }
    }

    /// A note, and its notebook unless it exists, by SQL.
    func insertNote(_ id: UUID, notebook: UUID, title: String) throws {
        try dbPool.write { db in
            try db.execute(sql: "INSERT OR IGNORE INTO notebook (id, name) VALUES (?, 'Work')", arguments: [notebook.uuidString])
            try db.execute(sql: "INSERT INTO note (id, notebook, title) VALUES (?, ?, ?)", arguments: [id.uuidString, notebook.uuidString, title])
        }
    }

}
