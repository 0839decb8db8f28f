import CipherDB
import CipherSync
import Foundation
import SyncEngine
import SyncSchema
import TestSupport
import Testing

/// The outbox of the sync engine: every insert, update and delete of a
/// declared table recorded by the table's own triggers, whatever wrote it,
/// on an encrypted file.
@Suite struct SyncOutboxTests {
    let notes: NotesDatabase

    init() throws {
        notes = try NotesDatabase()
    }

    @Test func installingNeedsEveryDeclaredTableAndColumn() throws {
        let other = try DatabaseQueue(path: notes.folder.path("other.sqlite"))
        try other.write { db in
            #expect(throws: SyncEngineError.missingTable("notebook")) { try db.installSyncEngine(for: notes.schema) }
            try db.execute(sql: "CREATE TABLE notebook (id TEXT PRIMARY KEY, name TEXT, colour TEXT); CREATE TABLE note (id TEXT PRIMARY KEY, notebook TEXT, title TEXT)")
            #expect(throws: SyncEngineError.missingColumn(table: "note", column: "body")) { try db.installSyncEngine(for: notes.schema) }
        }
        try other.close()
    }

    /// An end-to-end table installs, and syncs only with a sealer: a store
    /// without one stops before it sends or merges anything, rather than
    /// sync the table in the clear.
    @Test func anEndToEndTableSyncsOnlyWithASealer() async throws {
        let sealed = try SyncSchema(tables: [
            SyncTable(name: "diary", primaryKey: "id", conflicts: .serverWins, columns: [
                SyncColumn(name: "id", type: .uuid, isRequired: true),
                SyncColumn(name: "text", type: .text, maximumLength: 100),
            ], access: .owner, isEndToEnd: true),
        ])
        let other = try DatabaseQueue(path: notes.folder.path("other.sqlite"))
        try await other.write { db in
            try db.execute(sql: "CREATE TABLE diary (id TEXT PRIMARY KEY, text TEXT)")
            try db.installSyncEngine(for: sealed)
            try db.execute(sql: "INSERT INTO diary (id, text) VALUES (?, 'Dear diary')", arguments: [UUID().uuidString])
        }
        let store = SyncEngineStore(other, schema: sealed)
        await #expect(throws: SyncEngineError.endToEndWithoutSealing("diary")) { _ = try await store.beginStaging() }
        let pusher = SyncEnginePusher(other, schema: sealed, baseURL: URL(string: "http://127.0.0.1:9")!, transport: CurlTransport())
        await #expect(throws: SyncEngineError.endToEndWithoutSealing("diary")) { _ = try await pusher.push() }
        #expect(try await other.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sync_outbox") } == 1)
        try other.close()
    }

    /// A column whose SQL type would change its values (a title kept as
    /// a number, a UUID as an integer) is refused, naming the type to give
    /// it; the types of the table in SyncEngine.md install.
    @Test func installingNeedsColumnsThatKeepTheirValues() throws {
        let other = try DatabaseQueue(path: notes.folder.path("other.sqlite"))
        try other.write { db in
            try db.execute(sql: """
                CREATE TABLE notebook (id TEXT PRIMARY KEY, name VARCHAR(100), colour TEXT);
                CREATE TABLE note (id TEXT PRIMARY KEY, notebook TEXT, title NUMERIC, body TEXT)
                """)
            let error = #expect(throws: SyncEngineError.columnTypeMismatch(table: "note", column: "title", declared: .text, sqlType: "NUMERIC")) {
                try db.installSyncEngine(for: notes.schema)
            }
            #expect(error?.description == "the column note.title is declared text, but the table stores it as NUMERIC, which would change its values: "
                + "make it TEXT in a migration before the sync engine's")
        }
        try other.close()
        let types = try DatabaseQueue(path: notes.folder.path("types.sqlite"))
        let schema = try SyncSchema(tables: [SyncTable(name: "sample", primaryKey: "id", conflicts: .serverWins, columns: [
            SyncColumn(name: "id", type: .uuid, isRequired: true), SyncColumn(name: "label", type: .text, maximumLength: 20),
            SyncColumn(name: "count", type: .integer), SyncColumn(name: "ratio", type: .real), SyncColumn(name: "done", type: .boolean),
        ])])
        try types.write { db in
            try db.execute(sql: "CREATE TABLE sample (id TEXT PRIMARY KEY NOT NULL, label TEXT, count INTEGER, ratio REAL, done BOOLEAN)")
            try db.installSyncEngine(for: schema)
            try db.execute(sql: "DROP TABLE sample")
            try db.execute(sql: "CREATE TABLE sample (id INTEGER PRIMARY KEY, label TEXT, count INTEGER, ratio REAL, done BOOLEAN)")
            #expect(throws: SyncEngineError.columnTypeMismatch(table: "sample", column: "id", declared: .uuid, sqlType: "INTEGER")) {
                try db.installSyncEngine(for: schema)
            }
        }
        try types.close()
    }

    /// A server's row may hold null in a column the declaration leaves
    /// optional: a table that declares it NOT NULL could not merge it.
    @Test func installingNeedsAnOptionalColumnToAcceptNull() throws {
        let other = try DatabaseQueue(path: notes.folder.path("other.sqlite"))
        try other.write { db in
            try db.execute(sql: """
                CREATE TABLE notebook (id TEXT PRIMARY KEY NOT NULL, name TEXT NOT NULL, colour TEXT NOT NULL DEFAULT 'blue');
                CREATE TABLE note (id TEXT PRIMARY KEY NOT NULL, notebook TEXT NOT NULL, title TEXT NOT NULL, body TEXT)
                """)
            let error = #expect(throws: SyncEngineError.columnRequiresValue(table: "notebook", column: "colour")) {
                try db.installSyncEngine(for: notes.schema)
            }
            #expect(error?.description.hasSuffix("declare it required, or drop NOT NULL in a migration before the sync engine's") == true)
        }
        try other.close()
    }

    /// A table of its primary key alone (a set of ids) installs, and its
    /// inserts and deletes are recorded.
    @Test func aTableOfItsPrimaryKeyAloneIsSynced() throws {
        let schema = try SyncSchema(tables: [SyncTable(name: "tag", primaryKey: "id", conflicts: .serverWins, columns: [
            SyncColumn(name: "id", type: .uuid, isRequired: true),
        ])])
        let queue = try DatabaseQueue(path: notes.folder.path("tags.sqlite"))
        let tag = UUID()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE tag (id TEXT PRIMARY KEY NOT NULL)")
            try db.installSyncEngine(for: schema)
            try db.execute(sql: "INSERT INTO tag (id) VALUES (?)", arguments: [tag.uuidString])
            try db.execute(sql: "UPDATE sync_outbox SET sent_at = 1e9")
            try db.execute(sql: "DELETE FROM tag")
        }
        let recorded = try queue.read { db in try SyncOutboxEntry.inPushOrder().fetchAll(db) }
        #expect(recorded.map(\.operation) == [.upsert, .delete])
        #expect(recorded.map(\.changedColumns) == [[], []])
        #expect(recorded.allSatisfy { $0.rowID == tag })
        try queue.close()
    }

    @Test func anInsertRecordsAnUpsertOfEveryColumn() throws {
        let note = UUID(), notebook = UUID()
        try notes.insertNote(note, notebook: notebook, title: "Groceries")
        let recorded = try notes.entries()
        #expect(recorded.map(\.table) == ["notebook", "note"])
        #expect(recorded.map(\.operation) == [.upsert, .upsert])
        #expect(recorded.map(\.rowID) == [notebook, note])
        #expect(recorded.map(\.changedColumns) == [["name", "colour"], ["notebook", "title", "body"]])
        #expect(recorded.allSatisfy { $0.baseVersion == nil && $0.sentAt == nil })
        #expect(Set(recorded.map(\.mutationID)).count == 2)
    }

    @Test func editsOfAnUnsentRowJoinItsEntryAndASentOneIsNeverRewritten() throws {
        let note = UUID(), notebook = UUID()
        try notes.insertNote(note, notebook: notebook, title: "Groceries")
        try notes.dbPool.write { db in try db.execute(sql: "UPDATE note SET title = 'Shopping' WHERE id = ?", arguments: [note.uuidString]) }
        #expect(try notes.entries().count == 2)
        try notes.markSent()
        let sent = try notes.entries()

        try notes.setServerVersion(4, of: "note", note)
        try notes.dbPool.write { db in try db.execute(sql: "UPDATE note SET body = 'milk' WHERE id = ?", arguments: [note.uuidString]) }
        try notes.dbPool.write { db in try db.execute(sql: "UPDATE note SET title = 'Food', body = 'eggs' WHERE id = ?", arguments: [note.uuidString]) }
        let recorded = try notes.entries()
        #expect(Array(recorded.prefix(2)) == sent)
        #expect(recorded.count == 3)
        #expect(recorded.last?.changedColumns == ["body", "title"])
        #expect(recorded.last?.baseVersion == 4)
        #expect(recorded.last?.operation == .upsert)
    }

    @Test func anUpdateThatChangesNoValueRecordsNothingAndNullToAValueIsAChange() throws {
        let note = UUID()
        try notes.insertNote(note, notebook: UUID(), title: "Groceries")
        try notes.markSent()
        try notes.dbPool.write { db in try db.execute(sql: "UPDATE note SET title = 'Groceries', body = NULL WHERE id = ?", arguments: [note.uuidString]) }
        #expect(try notes.entries().filter { $0.sentAt == nil }.isEmpty)
        try notes.dbPool.write { db in try db.execute(sql: "UPDATE note SET body = '' WHERE id = ?", arguments: [note.uuidString]) }
        #expect(try notes.entries().filter { $0.sentAt == nil }.map(\.changedColumns) == [["body"]])
    }

    @Test func aRowTheServerNeverHeardOfLeavesNoEntryWhenDeleted() throws {
        let note = UUID(), notebook = UUID()
        try notes.insertNote(note, notebook: notebook, title: "Draft")
        try notes.dbPool.write { db in try db.execute(sql: "DELETE FROM note WHERE id = ?", arguments: [note.uuidString]) }
        #expect(try notes.entries().map(\.rowID) == [notebook])
    }

    @Test func aDeleteOfASyncedOrSentRowIsRecordedWithItsVersion() throws {
        let synced = UUID(), sent = UUID(), notebook = UUID()
        try notes.insertNote(synced, notebook: notebook, title: "Synced")
        try notes.insertNote(sent, notebook: notebook, title: "Sent")
        try notes.markSent()
        try notes.setServerVersion(9, of: "note", synced)
        try notes.dbPool.write { db in
            try db.execute(sql: "UPDATE note SET title = 'Edited' WHERE id = ?", arguments: [synced.uuidString])
            try db.execute(sql: "DELETE FROM note")
        }
        let unsent = try notes.entries().filter { $0.sentAt == nil }
        #expect(unsent.map(\.operation) == [.delete, .delete])
        #expect(Set(unsent.map(\.rowID)) == [synced, sent])
        #expect(unsent.first { $0.rowID == synced }?.baseVersion == 9)
        #expect(unsent.allSatisfy { $0.changedColumns.isEmpty })
    }

    /// A notebook deleted with its notes (ON DELETE CASCADE): each note's
    /// delete is recorded, the children's before the parent's.
    @Test func aCascadeRecordsTheDeleteOfEveryChild() throws {
        let notebook = UUID(), children = [UUID(), UUID()]
        for note in children { try notes.insertNote(note, notebook: notebook, title: "Note") }
        try notes.markSent()
        // CipherDB enables foreign keys on every connection, as GRDB does.
        try notes.dbPool.write { db in try db.execute(sql: "DELETE FROM notebook WHERE id = ?", arguments: [notebook.uuidString]) }
        let unsent = try notes.entries().filter { $0.sentAt == nil }
        #expect(Set(unsent.map(\.rowID)) == Set(children + [notebook]))
        #expect(unsent.last?.table == "notebook")
        #expect(unsent.allSatisfy { $0.operation == .delete })
    }

    @Test func aRowDeletedAndInsertedAgainIsAnUpsertOfEveryColumn() throws {
        let note = UUID(), notebook = UUID()
        try notes.insertNote(note, notebook: notebook, title: "Kept")
        try notes.markSent()
        try notes.setServerVersion(3, of: "note", note)
        try notes.dbPool.write { db in
            try db.execute(sql: "DELETE FROM note WHERE id = ?", arguments: [note.uuidString])
            try db.execute(sql: "INSERT INTO note (id, notebook, title) VALUES (?, ?, 'Again')", arguments: [note.uuidString, notebook.uuidString])
        }
        let unsent = try notes.entries().filter { $0.sentAt == nil }
        #expect(unsent.map(\.operation) == [.upsert])
        #expect(unsent.first?.changedColumns == ["notebook", "title", "body"])
        #expect(unsent.first?.baseVersion == 3)
    }

    /// A UUID stored in another form than the engine's would make one row
    /// two: it is refused, whoever writes it.
    @Test func aUUIDStoredOtherwiseThanAsUppercaseTextIsRefused() throws {
        let notebook = UUID()
        try notes.dbPool.write { db in try db.execute(sql: "INSERT INTO notebook (id, name) VALUES (?, 'Work')", arguments: [notebook.uuidString]) }
        let message = "a UUID of the synced table note must be stored as uppercase text: in a record, "
            + "static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy { .uppercaseString }; in SQL, uuidString"
        let forms: [(String, StatementArguments)] = [
            ("lowercase", [UUID().uuidString.lowercased(), notebook.uuidString]),
            ("a blob", [withUnsafeBytes(of: UUID().uuid) { Data($0) }, notebook.uuidString]),
            ("a reference in lowercase", [UUID().uuidString, notebook.uuidString.lowercased()]),
            ("not a UUID", [UUID().uuidString, "work"]),
        ]
        for (form, arguments) in forms {
            let error = #expect(throws: DatabaseError.self, "\(form)") {
                try notes.dbPool.write { db in try db.execute(sql: "INSERT INTO note (id, notebook, title) VALUES (?, ?, 'Note')", arguments: arguments) }
            }
            #expect(error?.message == message, "\(form)")
        }
        let note = UUID()
        try notes.insertNote(note, notebook: notebook, title: "Note")
        #expect(throws: DatabaseError.self) {
            try notes.dbPool.write { db in try db.execute(sql: "UPDATE note SET notebook = lower(notebook)") }
        }
        #expect(try notes.entries().map(\.rowID) == [notebook, note])
    }

    @Test func thePrimaryKeyOfASyncedRowCannotChange() throws {
        let note = UUID()
        try notes.insertNote(note, notebook: UUID(), title: "Fixed")
        let error = #expect(throws: DatabaseError.self) {
            try notes.dbPool.write { db in try db.execute(sql: "UPDATE note SET id = ? WHERE id = ?", arguments: [UUID().uuidString, note.uuidString]) }
        }
        #expect(error?.message == "the primary key of a synced row cannot change: delete the row and insert another")
    }

    @Test func aMergeOfTheServersRowsRecordsNothingAndTheTriggersRecordAgainAfterIt() throws {
        let note = UUID(), notebook = UUID()
        try notes.dbPool.write { db in
            try db.mergingSyncChanges {
                try db.execute(sql: "INSERT INTO notebook (id, name) VALUES (?, 'Server')", arguments: [notebook.uuidString])
            }
        }
        #expect(try notes.entries().isEmpty)
        try notes.insertNote(note, notebook: notebook, title: "Local")
        #expect(try notes.entries().map(\.rowID) == [note])
        // Failing inside: the triggers record again all the same.
        try notes.dbPool.write { db in
            #expect(throws: SyncEngineError.self) {
                try db.mergingSyncChanges { throw SyncEngineError.missingTable("x") }
            }
            try db.execute(sql: "UPDATE notebook SET name = 'Renamed'")
        }
        #expect(try notes.entries().last?.table == "notebook")
    }

    @Test func aMergeInsideAnotherLeavesTheTriggersSilentUntilTheOuterOneEnds() throws {
        try notes.dbPool.write { db in
            try db.mergingSyncChanges {
                try db.mergingSyncChanges {
                    try db.execute(sql: "INSERT INTO notebook (id, name) VALUES (?, 'Inner')", arguments: [UUID().uuidString])
                }
                try db.execute(sql: "INSERT INTO notebook (id, name) VALUES (?, 'Outer')", arguments: [UUID().uuidString])
            }
        }
        #expect(try notes.entries().isEmpty)
    }

    @Test func aMergeOutsideATransactionIsRefused() throws {
        let queue = try DatabaseQueue(path: notes.folder.path("other.sqlite"))
        let error = queue.inDatabase { db in
            #expect(throws: SyncEngineError.self) { try db.mergingSyncChanges {} }
        }
        #expect(error == SyncEngineError.notInTransaction("a merge of the server's changes"))
        try queue.close()
    }

    /// Another process, with none of our code: the `sqlcipher` shell. Its
    /// writes are recorded by the triggers in the file.
    @Test func anotherProgramsChangesAreRecorded() async throws {
        try notes.dbPool.close()
        let note = UUID(), notebook = UUID()
        let hexadecimalKey = NotesDatabase.key.map { String(format: "%02x", $0) }.joined()
        let script = """
            PRAGMA key = "x'\(hexadecimalKey)'";
            INSERT INTO notebook (id, name) VALUES ('\(notebook.uuidString)', 'Shell');
            INSERT INTO note (id, notebook, title) VALUES ('\(note.uuidString)', '\(notebook.uuidString)', 'From the shell');
            UPDATE note SET body = 'text';
            """
        // The key on standard input, never in the arguments.
        let result = try await run("/usr/bin/sqlcipher", [notes.path], input: script)
        #expect(result.status == 0, "\(result.error)")
        var configuration = Configuration()
        configuration.prepareDatabase { db in try db.useRawKey(NotesDatabase.key) }
        let reopened = try DatabaseQueue(path: notes.path, configuration: configuration)
        let recorded = try await reopened.read { db in try SyncOutboxEntry.inPushOrder().fetchAll(db) }
        #expect(recorded.map(\.rowID) == [notebook, note])
        #expect(recorded.last?.changedColumns == ["notebook", "title", "body"])
        try reopened.close()
    }

    /// A later declaration adds a column: installed again, the triggers
    /// record it, and entries recorded before keep their columns.
    @Test func aLaterDeclarationsNewColumnIsRecordedOnceInstalled() throws {
        let note = UUID()
        try notes.insertNote(note, notebook: UUID(), title: "Before")
        try notes.markSent()
        let later = try SyncSchema(json: Data(NotesDatabase.declaration.replacingOccurrences(
            of: #"{ "name": "body", "type": "text", "maximumLength": 100000 } ]"#,
            with: #"{ "name": "body", "type": "text", "maximumLength": 100000 }, { "name": "pinned", "type": "boolean" } ]"#).utf8))
        #expect(later.table("note")?.column("pinned") != nil)
        try notes.dbPool.write { db in
            try db.execute(sql: "ALTER TABLE note ADD COLUMN pinned INTEGER")
            try db.installSyncEngine(for: later)
            try db.execute(sql: "UPDATE note SET pinned = 1")
        }
        #expect(try notes.entries().filter { $0.sentAt == nil }.map(\.changedColumns) == [["pinned"]])
    }
}
