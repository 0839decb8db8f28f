import CipherDB
import Foundation
import SyncEngine
import SyncSchema
import TestSupport
import Testing

/// The server's answers to a batch, recorded: applied changes leave the
/// outbox and rebase the row's later ones; a change in conflict gives way
/// to the server's row, and what was lost is logged.
@Suite struct SyncPushResultsTests {
    let notes: NotesDatabase
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    init() throws {
        notes = try NotesDatabase()
    }

    func nextBatch() throws -> [SyncPushChange] {
        try notes.dbPool.write { db in try db.nextSyncPushBatch(for: notes.schema, at: now) }
    }

    func record(_ results: [SyncPushResult], for batch: [SyncPushChange]) throws -> SyncPushCounts {
        try notes.dbPool.write { db in try db.recordSyncPushResults(results, for: batch, schema: notes.schema, at: now) }
    }

    func applied(_ batch: [SyncPushChange], version: Int64) -> [SyncPushResult] {
        batch.map { SyncPushResult(mutationID: $0.mutationID, status: .applied, version: version) }
    }

    func serverVersions() throws -> [String: Int64] {
        try notes.dbPool.read { db in
            try Dictionary(uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT table_name, row_id, version FROM sync_row").map {
                ("\($0["table_name"] as String) \($0["row_id"] as String)", $0["version"] as Int64)
            })
        }
    }

    func conflicts() throws -> [SyncConflict] {
        try notes.dbPool.read { db in try SyncConflict.fetchAll(db) }
    }

    func execute(_ sql: String, _ arguments: StatementArguments = StatementArguments()) throws {
        try notes.dbPool.write { db in try db.execute(sql: sql, arguments: arguments) }
    }

    func value(_ sql: String) throws -> String? {
        try notes.dbPool.read { db in try String.fetchOne(db, sql: sql) }
    }

    /// A notebook and a note that the server has, at version 1.
    func syncedNote() throws -> (notebook: UUID, note: UUID) {
        let notebook = UUID(), note = UUID()
        try notes.insertNote(note, notebook: notebook, title: "Groceries")
        let batch = try nextBatch()
        _ = try record(applied(batch, version: 1), for: batch)
        return (notebook, note)
    }

    @Test func anAppliedChangeLeavesTheOutboxAndItsRowTakesItsVersion() throws {
        let (notebook, note) = try syncedNote()
        #expect(try notes.entries().isEmpty)
        #expect(try serverVersions() == ["notebook \(notebook.uuidString)": 1, "note \(note.uuidString)": 1])
        try execute("UPDATE note SET body = 'milk'")
        #expect(try notes.entries().map(\.baseVersion) == [1])
    }

    @Test func theRowsLaterChangesAreRebasedOnTheAppliedVersion() throws {
        let note = UUID()
        try notes.insertNote(note, notebook: UUID(), title: "Groceries")
        let batch = try nextBatch()
        try execute("UPDATE note SET body = 'milk'")
        let counts = try record(applied(batch, version: 7), for: batch)
        #expect(counts == SyncPushCounts(applied: 2))
        #expect(try notes.entries().map(\.baseVersion) == [7])
        #expect(try notes.entries().map(\.changedColumns) == [["body"]])
    }

    @Test func aConflictTakesTheServersRowLogsTheLocalValuesThatDifferedAndRecordsNothing() throws {
        let (notebook, _) = try syncedNote()
        try execute("UPDATE notebook SET name = 'Mine'")
        let batch = try nextBatch()
        let server = try notes.schema.table("notebook")!.row(id: notebook, values: ["name": .text("Theirs"), "colour": .text("blue")])
        let counts = try record([SyncPushResult(mutationID: batch[0].mutationID, status: .conflict, version: 4, serverRow: server)], for: batch)
        #expect(counts == SyncPushCounts(conflicts: 1))
        #expect(try value("SELECT name || ' ' || colour FROM notebook") == "Theirs blue")
        #expect(try notes.entries().isEmpty)
        #expect(try serverVersions()["notebook \(notebook.uuidString)"] == 4)
        let conflict = try #require(try conflicts().first)
        #expect(conflict.table == "notebook" && conflict.rowID == notebook)
        #expect(conflict.localValues == ["name": .string("Mine"), "colour": .null])
        #expect(conflict.serverValues == ["name": .string("Theirs"), "colour": .string("blue")])
        #expect(conflict.serverVersion == 4 && conflict.detectedAt == now)
    }

    /// A change the server refused (the user may not make it): the row
    /// takes the server's state, the change is kept with its reason even
    /// when nothing differs, and counted refused.
    @Test func aRefusedChangeTakesTheServersRowAndIsKeptWithItsReason() throws {
        let (notebook, _) = try syncedNote()
        try execute("UPDATE notebook SET name = 'Mine'")
        let batch = try nextBatch()
        let server = try notes.schema.table("notebook")!.row(id: notebook, values: ["name": .text("Work"), "colour": .null])
        let counts = try record([SyncPushResult(mutationID: batch[0].mutationID, status: .refused, version: 1, serverRow: server,
                                                refusal: "writing the table notebook needs the role editor")], for: batch)
        #expect(counts == SyncPushCounts(conflicts: 1, refused: 1))
        #expect(try value("SELECT name FROM notebook") == "Work")
        #expect(try notes.entries().isEmpty)
        let conflict = try #require(try conflicts().first)
        #expect(conflict.refusal == "writing the table notebook needs the role editor")
        #expect(conflict.localValues == ["name": .string("Mine")])
    }

    /// A row the server never had, refused: deleted here, kept with its
    /// values; in a database made before refusals, whose conflict table
    /// gains the column then.
    @Test func aRefusedCreationIsDeletedHereAndKeptInADatabaseMadeBeforeRefusals() throws {
        // The conflict table as the engine made it before refusals.
        try execute("DROP TABLE sync_conflict")
        try execute("""
            CREATE TABLE sync_conflict (id INTEGER PRIMARY KEY AUTOINCREMENT, table_name TEXT NOT NULL, row_id NOT NULL,
                local_values TEXT, server_values TEXT, server_version INTEGER, changed_at REAL NOT NULL, detected_at REAL NOT NULL)
            """)
        #expect(try notes.dbPool.read { db in try db.columns(in: "sync_conflict").map(\.name) }.contains("refusal") == false)
        #expect(try conflicts().isEmpty)
        let notebook = UUID()
        try execute("INSERT INTO notebook (id, name) VALUES (?, 'Mine')", [notebook.uuidString])
        let batch = try nextBatch()
        _ = try record([SyncPushResult(mutationID: batch[0].mutationID, status: .refused, version: nil, refusal: "not yours")], for: batch)
        #expect(try value("SELECT count(*) FROM notebook") == "0")
        #expect(try conflicts().map(\.refusal) == ["not yours"])
        #expect(try conflicts().first?.localValues?["name"] == .string("Mine"))
    }

    /// A local value that JSON cannot hold (an infinite real, written by
    /// SQL around the declaration) is refused as its column refuses it,
    /// naming the row, and nothing is recorded; the process goes on.
    @Test func aConflictWhoseLocalValueIsAnInfiniteRealIsRefusedNamingTheRow() throws {
        let folder = try TemporaryFolder()
        let queue = try DatabaseQueue(path: folder.path("gauges.sqlite"))
        let schema = try SyncSchema(tables: [SyncTable(name: "gauge", primaryKey: "id", conflicts: .serverWins, columns: [
            SyncColumn(name: "id", type: .uuid, isRequired: true), SyncColumn(name: "level", type: .real),
        ])])
        let id = UUID()
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE gauge (id TEXT PRIMARY KEY NOT NULL, level REAL)")
            try db.installSyncEngine(for: schema)
            try db.execute(sql: "INSERT INTO gauge (id, level) VALUES (?, 1.5)", arguments: [id.uuidString])
        }
        let batch = try queue.write { db in try db.nextSyncPushBatch(for: schema, at: now) }
        try queue.write { db in try db.execute(sql: "UPDATE gauge SET level = 1e999") }
        let server = try schema.table("gauge")!.row(id: id, values: ["level": .real(2)])
        let results = [SyncPushResult(mutationID: batch[0].mutationID, status: .conflict, version: 4, serverRow: server)]
        let error = #expect(throws: SyncEngineError.self) {
            try queue.write { db in try db.recordSyncPushResults(results, for: batch, schema: schema, at: now) }
        }
        guard case .rowBreaksDeclaration("gauge", id, .invalidValue(_, let valueError))? = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(valueError.problem == .notFinite)
        #expect(try queue.read { db in try SyncConflict.fetchCount(db) } == 0)
        try queue.close()
    }

    /// A table merged by column: the server applied what no one else
    /// changed, and only the column both changed is logged.
    @Test func aConflictOfATableMergedByColumnLogsTheColumnBothChanged() throws {
        let (notebook, note) = try syncedNote()
        try execute("UPDATE note SET title = 'Mine', body = 'eggs'")
        let batch = try nextBatch()
        let server = try notes.schema.table("note")!.row(id: note, values: [
            "notebook": .uuid(notebook), "title": .text("Theirs"), "body": .text("eggs"),
        ])
        _ = try record([SyncPushResult(mutationID: batch[0].mutationID, status: .conflict, version: 3, serverRow: server)], for: batch)
        #expect(try value("SELECT title || ' ' || body FROM note") == "Theirs eggs")
        #expect(try conflicts().map(\.localValues) == [["title": .string("Mine")]])
    }

    @Test func aConflictWithTheServersOwnValuesConverges() throws {
        let (notebook, _) = try syncedNote()
        try execute("UPDATE notebook SET name = 'Same'")
        let batch = try nextBatch()
        let server = try notes.schema.table("notebook")!.row(id: notebook, values: ["name": .text("Same"), "colour": .null])
        let counts = try record([SyncPushResult(mutationID: batch[0].mutationID, status: .conflict, version: 2, serverRow: server)], for: batch)
        #expect(counts == SyncPushCounts(converged: 1))
        #expect(try conflicts().isEmpty)
    }

    /// A row deleted on the server is deleted here, with what cascades from
    /// it, and none of it goes back to the server.
    @Test func aRowDeletedOnTheServerIsDeletedHereWithItsChildrenAndNothingIsPushedBack() throws {
        let (notebook, _) = try syncedNote()
        try execute("UPDATE notebook SET name = 'Mine'")
        let batch = try nextBatch()
        _ = try record([SyncPushResult(mutationID: batch[0].mutationID, status: .conflict, version: 6, serverRow: nil)], for: batch)
        #expect(try value("SELECT count(*) FROM notebook") == "0")
        #expect(try value("SELECT count(*) FROM note") == "0")
        #expect(try notes.entries().isEmpty)
        #expect(try serverVersions()["notebook \(notebook.uuidString)"] == nil)
        #expect(try conflicts().map(\.serverValues) == [nil])
    }

    /// The server deleted a notebook while a note of it was edited here:
    /// the note goes with its notebook, and its edit is logged.
    @Test func aChildEditedHereWhoseParentTheServerDeletedIsLoggedAndLeavesTheOutbox() throws {
        let (notebook, edited) = try syncedNote()
        let untouched = UUID()
        try notes.insertNote(untouched, notebook: notebook, title: "Untouched")
        let first = try nextBatch()
        _ = try record(applied(first, version: 2), for: first)
        try execute("UPDATE note SET body = 'mine' WHERE id = ?", [edited.uuidString])
        try execute("UPDATE notebook SET name = 'Renamed'")
        let batch = try nextBatch()
        let notebookChange = try #require(batch.first { $0.row.table == "notebook" })
        let counts = try record([SyncPushResult(mutationID: notebookChange.mutationID, status: .conflict, version: 8, serverRow: nil)], for: batch)
        #expect(counts == SyncPushCounts(conflicts: 2))
        #expect(try value("SELECT count(*) FROM note") == "0")
        #expect(try notes.entries().isEmpty)
        #expect(try serverVersions().isEmpty)
        let logged = try conflicts()
        #expect(logged.map(\.table) == ["notebook", "note"])
        #expect(logged.last?.rowID == edited)
        #expect(logged.last?.localValues == ["notebook": .string(notebook.uuidString), "title": .string("Groceries"), "body": .string("mine")])
        #expect(logged.last?.serverValues == nil)
        // Nothing is left to push, and the next batch is empty.
        #expect(try nextBatch().isEmpty)
    }

    /// A member who lost a group pushes a rename of its root and a new
    /// child: both refused, the root first. The root's answer takes the
    /// child off the device, by cascade; the child is kept with its own
    /// refusal, not only as a row the cascade lost.
    @Test func aChildTakenByARefusedParentsCascadeIsKeptWithItsOwnRefusal() throws {
        let (notebook, _) = try syncedNote()
        try execute("UPDATE notebook SET name = 'Mine'")
        let added = UUID()
        try notes.insertNote(added, notebook: notebook, title: "Late")
        let batch = try nextBatch()
        let notebookChange = try #require(batch.first { $0.row.table == "notebook" })
        let noteChange = try #require(batch.first { $0.row.id == added })
        let counts = try record([
            SyncPushResult(mutationID: notebookChange.mutationID, status: .refused, version: nil, refusal: "not a member any more"),
            SyncPushResult(mutationID: noteChange.mutationID, status: .refused, version: nil, refusal: "not a member of its group"),
        ], for: batch)
        let logged = try conflicts()
        #expect(logged.first { $0.rowID == added }?.refusal == "not a member of its group")
        #expect(logged.first { $0.table == "notebook" }?.refusal == "not a member any more")
        #expect(counts.refused == 2)
        #expect(try nextBatch().isEmpty)
    }

    @Test func answersToChangesNoLongerInTheOutboxAreIgnored() throws {
        try notes.insertNote(UUID(), notebook: UUID(), title: "Once")
        let batch = try nextBatch()
        #expect(try record(applied(batch, version: 1), for: batch) == SyncPushCounts(applied: 2))
        #expect(try record(applied(batch, version: 1), for: batch) == SyncPushCounts())
    }
}
