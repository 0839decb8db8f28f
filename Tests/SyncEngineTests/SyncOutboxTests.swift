import CipherDB
import Foundation
import SyncEngine
import SyncSchema
import TestSupport
import Testing

/// The outbox of the sync engine: every insert, update and delete of a
/// declared table recorded by the table's own triggers, whatever wrote it,
/// on an encrypted file.
@Suite struct SyncOutboxTests {
    static let declaration = """
        {
          "format": 1,
          "tables": [
            { "name": "notebook", "primaryKey": "id", "conflicts": "server-wins",
              "columns": [
                { "name": "id", "type": "uuid", "required": true },
                { "name": "name", "type": "text", "required": true, "maximumLength": 100 } ] },
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
                CREATE TABLE notebook (id TEXT PRIMARY KEY NOT NULL, name TEXT NOT NULL);
                CREATE TABLE note (id TEXT PRIMARY KEY NOT NULL,
                    notebook TEXT NOT NULL REFERENCES notebook(id) ON DELETE CASCADE,
                    title TEXT NOT NULL, body TEXT);
                """)
            try db.installSyncEngine(for: schema)
        }
    }

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

    func insertNote(_ id: UUID, notebook: UUID, title: String) throws {
        try dbPool.write { db in
            try db.execute(sql: "INSERT OR IGNORE INTO notebook (id, name) VALUES (?, 'Work')", arguments: [notebook.uuidString])
            try db.execute(sql: "INSERT INTO note (id, notebook, title) VALUES (?, ?, ?)", arguments: [id.uuidString, notebook.uuidString, title])
        }
    }

    @Test func installingNeedsEveryDeclaredTableAndColumn() throws {
        let other = try DatabaseQueue(path: folder.path("other.sqlite"))
        try other.write { db in
            #expect(throws: SyncEngineError.missingTable("notebook")) { try db.installSyncEngine(for: schema) }
            try db.execute(sql: "CREATE TABLE notebook (id TEXT PRIMARY KEY, name TEXT); CREATE TABLE note (id TEXT PRIMARY KEY, notebook TEXT, title TEXT)")
            #expect(throws: SyncEngineError.missingColumn(table: "note", column: "body")) { try db.installSyncEngine(for: schema) }
        }
        try other.close()
    }

    @Test func anInsertRecordsAnUpsertOfEveryColumn() throws {
        let note = UUID(), notebook = UUID()
        try insertNote(note, notebook: notebook, title: "Groceries")
        let recorded = try entries()
        #expect(recorded.map(\.table) == ["notebook", "note"])
        #expect(recorded.map(\.operation) == [.upsert, .upsert])
        #expect(recorded.map(\.rowID) == [notebook, note])
        #expect(recorded.map(\.changedColumns) == [["name"], ["notebook", "title", "body"]])
        #expect(recorded.allSatisfy { $0.baseVersion == nil && $0.sentAt == nil })
        #expect(Set(recorded.map(\.mutationID)).count == 2)
    }

    @Test func editsOfAnUnsentRowJoinItsEntryAndASentOneIsNeverRewritten() throws {
        let note = UUID(), notebook = UUID()
        try insertNote(note, notebook: notebook, title: "Groceries")
        try dbPool.write { db in try db.execute(sql: "UPDATE note SET title = 'Shopping' WHERE id = ?", arguments: [note.uuidString]) }
        #expect(try entries().count == 2)
        try markSent()
        let sent = try entries()

        try setServerVersion(4, of: "note", note)
        try dbPool.write { db in try db.execute(sql: "UPDATE note SET body = 'milk' WHERE id = ?", arguments: [note.uuidString]) }
        try dbPool.write { db in try db.execute(sql: "UPDATE note SET title = 'Food', body = 'eggs' WHERE id = ?", arguments: [note.uuidString]) }
        let recorded = try entries()
        #expect(Array(recorded.prefix(2)) == sent)
        #expect(recorded.count == 3)
        #expect(recorded.last?.changedColumns == ["body", "title"])
        #expect(recorded.last?.baseVersion == 4)
        #expect(recorded.last?.operation == .upsert)
    }

    @Test func anUpdateThatChangesNoValueRecordsNothingAndNullToAValueIsAChange() throws {
        let note = UUID()
        try insertNote(note, notebook: UUID(), title: "Groceries")
        try markSent()
        try dbPool.write { db in try db.execute(sql: "UPDATE note SET title = 'Groceries', body = NULL WHERE id = ?", arguments: [note.uuidString]) }
        #expect(try entries().filter { $0.sentAt == nil }.isEmpty)
        try dbPool.write { db in try db.execute(sql: "UPDATE note SET body = '' WHERE id = ?", arguments: [note.uuidString]) }
        #expect(try entries().filter { $0.sentAt == nil }.map(\.changedColumns) == [["body"]])
    }

    @Test func aRowTheServerNeverHeardOfLeavesNoEntryWhenDeleted() throws {
        let note = UUID(), notebook = UUID()
        try insertNote(note, notebook: notebook, title: "Draft")
        try dbPool.write { db in try db.execute(sql: "DELETE FROM note WHERE id = ?", arguments: [note.uuidString]) }
        #expect(try entries().map(\.rowID) == [notebook])
    }

    @Test func aDeleteOfASyncedOrSentRowIsRecordedWithItsVersion() throws {
        let synced = UUID(), sent = UUID(), notebook = UUID()
        try insertNote(synced, notebook: notebook, title: "Synced")
        try insertNote(sent, notebook: notebook, title: "Sent")
        try markSent()
        try setServerVersion(9, of: "note", synced)
        try dbPool.write { db in
            try db.execute(sql: "UPDATE note SET title = 'Edited' WHERE id = ?", arguments: [synced.uuidString])
            try db.execute(sql: "DELETE FROM note")
        }
        let unsent = try entries().filter { $0.sentAt == nil }
        #expect(unsent.map(\.operation) == [.delete, .delete])
        #expect(Set(unsent.map(\.rowID)) == [synced, sent])
        #expect(unsent.first { $0.rowID == synced }?.baseVersion == 9)
        #expect(unsent.allSatisfy { $0.changedColumns.isEmpty })
    }

    /// A notebook deleted with its notes (ON DELETE CASCADE): each note's
    /// delete is recorded, the children's before the parent's.
    @Test func aCascadeRecordsTheDeleteOfEveryChild() throws {
        let notebook = UUID(), notes = [UUID(), UUID()]
        for note in notes { try insertNote(note, notebook: notebook, title: "Note") }
        try markSent()
        // CipherDB enables foreign keys on every connection, as GRDB does.
        try dbPool.write { db in try db.execute(sql: "DELETE FROM notebook WHERE id = ?", arguments: [notebook.uuidString]) }
        let unsent = try entries().filter { $0.sentAt == nil }
        #expect(Set(unsent.map(\.rowID)) == Set(notes + [notebook]))
        #expect(unsent.last?.table == "notebook")
        #expect(unsent.allSatisfy { $0.operation == .delete })
    }

    @Test func aRowDeletedAndInsertedAgainIsAnUpsertOfEveryColumn() throws {
        let note = UUID(), notebook = UUID()
        try insertNote(note, notebook: notebook, title: "Kept")
        try markSent()
        try setServerVersion(3, of: "note", note)
        try dbPool.write { db in
            try db.execute(sql: "DELETE FROM note WHERE id = ?", arguments: [note.uuidString])
            try db.execute(sql: "INSERT INTO note (id, notebook, title) VALUES (?, ?, 'Again')", arguments: [note.uuidString, notebook.uuidString])
        }
        let unsent = try entries().filter { $0.sentAt == nil }
        #expect(unsent.map(\.operation) == [.upsert])
        #expect(unsent.first?.changedColumns == ["notebook", "title", "body"])
        #expect(unsent.first?.baseVersion == 3)
    }

    @Test func thePrimaryKeyOfASyncedRowCannotChange() throws {
        let note = UUID()
        try insertNote(note, notebook: UUID(), title: "Fixed")
        let error = #expect(throws: DatabaseError.self) {
            try dbPool.write { db in try db.execute(sql: "UPDATE note SET id = ? WHERE id = ?", arguments: [UUID().uuidString, note.uuidString]) }
        }
        #expect(error?.message == "the primary key of a synced row cannot change: delete the row and insert another")
    }

    @Test func aMergeOfTheServersRowsRecordsNothingAndTheTriggersRecordAgainAfterIt() throws {
        let note = UUID(), notebook = UUID()
        try dbPool.write { db in
            try db.mergingSyncChanges {
                try db.execute(sql: "INSERT INTO notebook (id, name) VALUES (?, 'Server')", arguments: [notebook.uuidString])
            }
        }
        #expect(try entries().isEmpty)
        try insertNote(note, notebook: notebook, title: "Local")
        #expect(try entries().map(\.rowID) == [note])
        // Failing inside: the triggers record again all the same.
        try dbPool.write { db in
            #expect(throws: SyncEngineError.self) {
                try db.mergingSyncChanges { throw SyncEngineError.missingTable("x") }
            }
            try db.execute(sql: "UPDATE notebook SET name = 'Renamed'")
        }
        #expect(try entries().last?.table == "notebook")
    }

    @Test func aMergeOutsideATransactionIsRefused() throws {
        let queue = try DatabaseQueue(path: folder.path("other.sqlite"))
        let error = queue.inDatabase { db in
            #expect(throws: SyncEngineError.self) { try db.mergingSyncChanges {} }
        }
        #expect(error == SyncEngineError.notInTransaction("a merge of the server's changes"))
        try queue.close()
    }

    /// Another process, with none of our code: the `sqlcipher` shell. Its
    /// writes are recorded by the triggers in the file.
    @Test func anotherProgramsChangesAreRecorded() async throws {
        try dbPool.close()
        let note = UUID(), notebook = UUID()
        let hexadecimalKey = Self.key.map { String(format: "%02x", $0) }.joined()
        let script = """
            PRAGMA key = "x'\(hexadecimalKey)'";
            INSERT INTO notebook (id, name) VALUES ('\(notebook.uuidString)', 'Shell');
            INSERT INTO note (id, notebook, title) VALUES ('\(note.uuidString)', '\(notebook.uuidString)', 'From the shell');
            UPDATE note SET body = 'text';
            """
        // The key on standard input, never in the arguments.
        let result = try await run("/usr/bin/sqlcipher", [path], input: script)
        #expect(result.status == 0, "\(result.error)")
        var configuration = Configuration()
        configuration.prepareDatabase { db in try db.useRawKey(Self.key) }
        let reopened = try DatabaseQueue(path: path, configuration: configuration)
        let recorded = try await reopened.read { db in try SyncOutboxEntry.inPushOrder().fetchAll(db) }
        #expect(recorded.map(\.rowID) == [notebook, note])
        #expect(recorded.last?.changedColumns == ["notebook", "title", "body"])
        try reopened.close()
    }

    /// A later declaration adds a column: installed again, the triggers
    /// record it, and entries recorded before keep their columns.
    @Test func aLaterDeclarationsNewColumnIsRecordedOnceInstalled() throws {
        let note = UUID()
        try insertNote(note, notebook: UUID(), title: "Before")
        try markSent()
        let later = try SyncSchema(json: Data(Self.declaration.replacingOccurrences(
            of: #"{ "name": "body", "type": "text", "maximumLength": 100000 } ]"#,
            with: #"{ "name": "body", "type": "text", "maximumLength": 100000 }, { "name": "pinned", "type": "boolean" } ]"#).utf8))
        #expect(later.table("note")?.column("pinned") != nil)
        try dbPool.write { db in
            try db.execute(sql: "ALTER TABLE note ADD COLUMN pinned INTEGER")
            try db.installSyncEngine(for: later)
            try db.execute(sql: "UPDATE note SET pinned = 1")
        }
        #expect(try entries().filter { $0.sentAt == nil }.map(\.changedColumns) == [["pinned"]])
    }
}
