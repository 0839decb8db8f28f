import CipherDB
import Foundation
import SyncEngine
import SyncSchema
import Synchronization
import Testing

/// The server's rows, staged page by page and merged in one transaction:
/// parents before children, tombstones children first, local changes left
/// for their push, and every foreign key valid after it.
@Suite struct SyncMergeTests {
    let notes: NotesDatabase
    let notebookTable: SyncTable
    let noteTable: SyncTable

    init() throws {
        notes = try NotesDatabase()
        notebookTable = try #require(notes.schema.table("notebook"))
        noteTable = try #require(notes.schema.table("note"))
    }

    func notebook(_ id: UUID, _ name: String, version: Int64) throws -> SyncServerRow {
        SyncServerRow(row: try notebookTable.row(id: id, values: ["name": .text(name), "colour": .null]), version: version)
    }

    func note(_ id: UUID, in notebook: UUID, _ title: String, version: Int64) throws -> SyncServerRow {
        SyncServerRow(row: try noteTable.row(id: id, values: ["notebook": .uuid(notebook), "title": .text(title), "body": .null]),
                      version: version)
    }

    func stage(_ rows: [SyncServerRow], _ tombstones: [SyncTombstone] = []) throws {
        try notes.dbPool.write { db in try db.stageSyncPage(rows: rows, tombstones: tombstones, schema: notes.schema) }
    }

    func merge(snapshot: Bool = false) throws -> SyncMergeCounts {
        try notes.dbPool.write { db in try db.mergeStagedSyncChanges(schema: notes.schema, isSnapshot: snapshot) }
    }

    func titles() throws -> [String] {
        try notes.dbPool.read { db in try String.fetchAll(db, sql: "SELECT title FROM note ORDER BY title") }
    }

    func count(_ sql: String) throws -> Int {
        try notes.dbPool.read { db in try Int.fetchOne(db, sql: sql) ?? -1 }
    }

    /// The rows and tombstones staged for both tables.
    func stagedCount() throws -> Int {
        try count("SELECT (SELECT count(*) FROM sync_stage_notebook) + (SELECT count(*) FROM sync_stage_note)")
    }

    @Test func childrenStagedBeforeTheirParentsAreMergedAfterThem() throws {
        let work = UUID(), groceries = UUID()
        try stage([try note(groceries, in: work, "Groceries", version: 2)])
        try stage([try notebook(work, "Work", version: 1)])
        let counts = try merge()
        #expect(counts == SyncMergeCounts(inserted: 2))
        #expect(try titles() == ["Groceries"])
        // The server's rows are not local changes, and their versions are
        // the base of the next ones.
        #expect(try notes.entries().isEmpty)
        try notes.dbPool.write { db in try db.execute(sql: "UPDATE note SET body = 'milk'") }
        #expect(try notes.entries().map(\.baseVersion) == [2])
        #expect(try stagedCount() == 0)
    }

    @Test func tombstonesDeleteChildrenBeforeTheirParents() throws {
        let work = UUID(), groceries = UUID()
        try stage([try notebook(work, "Work", version: 1), try note(groceries, in: work, "Groceries", version: 2)])
        _ = try merge()
        try stage([], [SyncTombstone(table: "notebook", id: work, version: 3), SyncTombstone(table: "note", id: groceries, version: 4)])
        let counts = try merge()
        #expect(counts.deleted == 2)
        #expect(try count("SELECT count(*) FROM notebook") + count("SELECT count(*) FROM note") == 0)
        #expect(try count("SELECT count(*) FROM sync_row") == 0)
        #expect(try notes.entries().isEmpty)
    }

    @Test func aRowTheDeviceHoldsAsItIsIsCountedUnchangedAndNotWritten() throws {
        let work = UUID()
        try stage([try notebook(work, "Work", version: 1)])
        _ = try merge()
        // The same values at a later version: only the version moves, and
        // the row is not written (a trigger of the writer's connection
        // counts the writes).
        try stage([try notebook(work, "Work", version: 5)])
        let (counts, writes) = try notes.dbPool.write { db in
            try db.execute(sql: """
                CREATE TEMP TABLE writes (n INTEGER);
                CREATE TEMP TRIGGER notebook_written AFTER UPDATE ON main.notebook BEGIN INSERT INTO writes VALUES (1); END;
                """)
            let counts = try db.mergeStagedSyncChanges(schema: notes.schema, isSnapshot: false)
            return (counts, try Int.fetchOne(db, sql: "SELECT count(*) FROM writes") ?? -1)
        }
        #expect(counts == SyncMergeCounts(unchanged: 1))
        #expect(writes == 0)
        #expect(try count("SELECT version FROM sync_row") == 5)
    }

    @Test func aChangedRowIsWrittenOnceAndOnlyInTheColumnsThatChanged() throws {
        let work = UUID(), home = UUID(), groceries = UUID()
        try stage([try notebook(work, "Work", version: 1), try notebook(home, "Home", version: 2),
                   try note(groceries, in: work, "Groceries", version: 3)])
        _ = try merge()
        // Work renamed; the note moved to Home and retitled; Home as it was.
        try stage([try notebook(work, "Office", version: 4), try notebook(home, "Home", version: 2),
                   try note(groceries, in: home, "Shopping", version: 5)])
        let (counts, writes) = try notes.dbPool.write { db in
            // Triggers of the writer's connection record which columns
            // each statement set, as an index or an `UPDATE OF` trigger
            // sees them.
            try db.execute(sql: """
                CREATE TEMP TABLE writes (row TEXT, columns TEXT);
                CREATE TEMP TRIGGER notebook_name AFTER UPDATE OF name ON main.notebook BEGIN INSERT INTO writes VALUES (NEW.name, 'name'); END;
                CREATE TEMP TRIGGER notebook_colour AFTER UPDATE OF colour ON main.notebook BEGIN INSERT INTO writes VALUES (NEW.name, 'colour'); END;
                CREATE TEMP TRIGGER note_written AFTER UPDATE ON main.note BEGIN INSERT INTO writes VALUES (NEW.title, 'any'); END;
                CREATE TEMP TRIGGER note_body AFTER UPDATE OF body ON main.note BEGIN INSERT INTO writes VALUES (NEW.title, 'body'); END;
                """)
            let counts = try db.mergeStagedSyncChanges(schema: notes.schema, isSnapshot: false)
            return (counts, try Row.fetchAll(db, sql: "SELECT row, columns FROM writes ORDER BY row, columns").map { "\($0[0] as String) \($0[1] as String)" })
        }
        #expect(counts == SyncMergeCounts(updated: 2, unchanged: 1))
        #expect(writes == ["Office name", "Shopping any"])
        #expect(try count("SELECT count(*) FROM note WHERE notebook = '\(home.uuidString)' AND title = 'Shopping'") == 1)
    }

    @Test func aRowsLastStateInThePagesWins() throws {
        let work = UUID()
        try stage([try notebook(work, "First", version: 1)])
        try stage([], [SyncTombstone(table: "notebook", id: work, version: 2)])
        try stage([try notebook(work, "Again", version: 3)])
        #expect(try merge() == SyncMergeCounts(inserted: 1))
        #expect(try notes.dbPool.read { db in try String.fetchOne(db, sql: "SELECT name FROM notebook") } == "Again")
    }

    @Test func aRowWithUnsentChangesIsLeftForItsPush() throws {
        let work = UUID(), groceries = UUID()
        try stage([try notebook(work, "Work", version: 1), try note(groceries, in: work, "Groceries", version: 2)])
        _ = try merge()
        try notes.dbPool.write { db in try db.execute(sql: "UPDATE note SET title = 'Mine'") }
        try stage([try note(groceries, in: work, "Theirs", version: 5)])
        let counts = try merge()
        #expect(counts == SyncMergeCounts(leftAlone: 1))
        #expect(try titles() == ["Mine"])
        #expect(try notes.entries().map(\.changedColumns) == [["title"]])
    }

    /// A snapshot lists every live row: a synced row it does not list is
    /// deleted; a row never synced, or with unsent changes, stays.
    @Test func aSnapshotDeletesTheSyncedRowsItDoesNotList() throws {
        let work = UUID(), home = UUID()
        try stage([try notebook(work, "Work", version: 1), try notebook(home, "Home", version: 2)])
        _ = try merge()
        let local = UUID()
        try notes.dbPool.write { db in try db.execute(sql: "INSERT INTO notebook (id, name) VALUES (?, 'Local')", arguments: [local.uuidString]) }
        try stage([try notebook(work, "Work", version: 1)])
        let counts = try merge(snapshot: true)
        #expect(counts.deleted == 1)
        #expect(try notes.dbPool.read { db in try String.fetchAll(db, sql: "SELECT name FROM notebook ORDER BY name") } == ["Local", "Work"])
    }

    /// A note edited here whose notebook the server deleted: the note goes
    /// with it, and its edit is logged.
    @Test func aChildWithUnsentChangesDeletedByCascadeIsLogged() throws {
        let work = UUID(), groceries = UUID()
        try stage([try notebook(work, "Work", version: 1), try note(groceries, in: work, "Groceries", version: 2)])
        _ = try merge()
        try notes.dbPool.write { db in try db.execute(sql: "UPDATE note SET body = 'mine'") }
        try stage([], [SyncTombstone(table: "notebook", id: work, version: 3)])
        let counts = try merge()
        #expect(counts.deleted == 1 && counts.conflicts == 1)
        #expect(try count("SELECT count(*) FROM note") == 0)
        #expect(try notes.entries().isEmpty)
        let logged = try notes.dbPool.read { db in try SyncConflict.fetchAll(db) }
        #expect(logged.map(\.rowID) == [groceries])
        #expect(logged.first?.localValues?["body"] == .string("mine"))
    }

    @Test func aRowReferencingNothingRollsTheMergeBackAndKeepsTheStaging() throws {
        let orphan = UUID(), nowhere = UUID()
        try stage([try note(orphan, in: nowhere, "Orphan", version: 1)])
        let error = #expect(throws: SyncEngineError.self) { try merge() }
        #expect(error == .foreignKeyViolation(table: "note", id: orphan.uuidString, parent: "notebook"))
        #expect(try count("SELECT count(*) FROM note") == 0)
        #expect(try stagedCount() == 1)
    }

    /// A server of a later declaration sends a column this app does not
    /// have: it is not stored here, and the rest of the row is.
    @Test func aColumnTheDeclarationDoesNotHaveIsNotStored() throws {
        let work = UUID()
        let later = try SyncSchema(json: Data(NotesDatabase.declaration.replacingOccurrences(
            of: #"{ "name": "colour", "type": "text", "maximumLength": 20 } ]"#,
            with: #"{ "name": "colour", "type": "text", "maximumLength": 20 }, { "name": "archived", "type": "boolean" } ]"#).utf8))
        let row = try #require(later.table("notebook")).row(id: work, values: ["name": .text("Work"), "archived": .boolean(true)])
        try stage([SyncServerRow(row: row, version: 1)])
        #expect(try merge() == SyncMergeCounts(inserted: 1))
        #expect(try notes.dbPool.read { db in try String.fetchOne(db, sql: "SELECT name FROM notebook") } == "Work")
    }

    /// A server of an earlier declaration sends rows without a column this
    /// app added: an existing row keeps its value there, and a new row
    /// takes the column's default.
    @Test func aColumnTheServersRowDoesNotCarryKeepsItsLocalValue() throws {
        let work = UUID(), home = UUID()
        let coloured = SyncServerRow(row: try notebookTable.row(id: work, values: ["name": .text("Work"), "colour": .text("red")]),
                                     version: 1)
        try stage([coloured])
        _ = try merge()
        let renamed = SyncServerRow(row: try notebookTable.row(id: work, values: ["name": .text("Office")]), version: 2)
        let added = SyncServerRow(row: try notebookTable.row(id: home, values: ["name": .text("Home")]), version: 3)
        try stage([renamed, added])
        #expect(try merge() == SyncMergeCounts(inserted: 1, updated: 1))
        let rows = try notes.dbPool.read { db in
            try Row.fetchAll(db, sql: "SELECT name, colour FROM notebook ORDER BY name").map { [$0[0] as String?, $0[1] as String?] }
        }
        #expect(rows == [["Home", nil], ["Office", "red"]])
        #expect(try count("SELECT max(version) FROM sync_row") == 3)
    }

    /// A database whose engine was installed before pulls were staged by
    /// table (one `sync_stage` table of JSON) gets its staging tables at
    /// the start of its next pull, and a declaration that adds a column
    /// gets a staging table with that column.
    @Test func theStartOfAPullMakesTheStagingTablesOfTheDeclaration() throws {
        try notes.dbPool.write { db in
            try db.execute(sql: """
                DROP TABLE sync_stage_notebook;
                CREATE TABLE sync_stage (seq INTEGER PRIMARY KEY, kind TEXT, table_name TEXT, row_id TEXT, version INTEGER, row_values TEXT);
                """)
        }
        let later = try SyncSchema(json: Data(NotesDatabase.declaration.replacingOccurrences(
            of: #"{ "name": "body", "type": "text", "maximumLength": 100000 } ]"#,
            with: #"{ "name": "body", "type": "text", "maximumLength": 100000 }, { "name": "pinned", "type": "boolean" } ]"#).utf8))
        #expect(later != notes.schema)
        let tables = try notes.dbPool.write { db in
            try db.execute(sql: "ALTER TABLE note ADD COLUMN pinned INTEGER")
            try db.prepareSyncStaging(schema: later)
            return try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE name LIKE 'sync_stage%' AND type = 'table' ORDER BY name")
        }
        #expect(tables == ["sync_stage_note", "sync_stage_notebook"])
        let noteColumns = try notes.dbPool.read { db in try db.columns(in: "sync_stage_note").map(\.name) }
        #expect(noteColumns.suffix(4) == ["notebook", "title", "body", "pinned"])
    }

    /// More rows than one statement of the merge takes (chunks of
    /// `Database.mergeChunk`, 2,000): every one inserted, then updated,
    /// then deleted by a snapshot that lists none of them.
    @Test func theMergeReportsItsProgressChunkByChunk() throws {
        let work = UUID()
        try stage([try notebook(work, "Work", version: 1)])
        try stage(try (0..<4_500).map { index in try note(UUID(), in: work, "Note \(index)", version: Int64(index + 2)) })
        let calls = Mutex<[[Int]]>([])
        _ = try notes.dbPool.write { db in
            try db.mergeStagedSyncChanges(schema: notes.schema, isSnapshot: false) { merged, staged in
                calls.withLock { $0.append([merged, staged]) }
            }
        }
        let seen = calls.withLock { $0 }
        #expect(seen.first == [0, 4_501] && seen.last == [4_501, 4_501])
        // The notebook's chunk, then the notes' three.
        #expect(seen.map { $0[0] } == [0, 1, 2_001, 4_001, 4_501, 4_501])
    }

    @Test func aMergeLargerThanAChunkTakesEveryRow() throws {
        let work = UUID()
        let ids = (0..<4_500).map { _ in UUID() }
        try stage([try notebook(work, "Work", version: 1)])
        try stage(try ids.enumerated().map { index, id in try note(id, in: work, "Note \(index)", version: Int64(index + 2)) })
        #expect(try merge() == SyncMergeCounts(inserted: 4_501))
        try stage(try ids.enumerated().map { index, id in try note(id, in: work, "Edited \(index)", version: Int64(index + 5_000)) })
        #expect(try merge() == SyncMergeCounts(updated: 4_500))
        #expect(try count("SELECT count(*) FROM note WHERE title LIKE 'Edited %'") == 4_500)
        #expect(try count("SELECT count(*) FROM sync_row WHERE version >= 5000") == 4_500)
        let home = UUID()
        try stage([try notebook(home, "Home", version: 10_000)])
        let counts = try merge(snapshot: true)
        #expect(counts.inserted == 1)
        #expect(counts.deleted == 4_501)
        #expect(try count("SELECT count(*) FROM note") == 0)
        #expect(try count("SELECT count(*) FROM sync_row") == 1)
    }
}
