import CipherSync
import Foundation
import ServerTestSupport
import SyncEngine
import Synchronization
import SyncSchema
import TestSupport
import Testing

/// Two devices of one app syncing through the real server on loopback,
/// over libcurl, on both server stores: rows of every declared table go
/// both ways, edits of different columns of a row merged by column both
/// survive, an edit of the same notebook by both is a conflict kept, and
/// a delete reaches the other device with what it cascades to.
@Suite struct SyncEngineSyncTests {
    let work = UUID().uuidString, groceries = UUID().uuidString

    /// Device `a` makes a notebook with a note; both devices sync.
    func shared(_ url: URL) async throws -> (a: NotesDevice, b: NotesDevice) {
        let (a, b) = (try NotesDevice(), try NotesDevice())
        try a.execute("INSERT INTO notebook (id, name) VALUES (?, 'Work')", [work])
        try a.execute("INSERT INTO note (id, notebook, title) VALUES (?, ?, 'Groceries')", [groceries, work])
        let first = try await a.sync(url)
        #expect(first.pushed.applied == 2)
        _ = try await b.sync(url)
        return (a, b)
    }

    @Test(arguments: StoreKind.allCases)
    func aDevicesRowsReachTheOtherDevice(_ kind: StoreKind) async throws {
        try await withSyncServer(kind) { url in
            let (a, b) = try await shared(url)
            #expect(try b.content() == a.content())
            #expect(try b.content().count == 2)
        }
    }

    /// The device keeps the ETag of a delta that left its cursor where it
    /// was (the tag answers that cursor): the next sync with nothing new
    /// is answered 304 and is up to date; one after a change is not.
    @Test(arguments: StoreKind.allCases)
    func aSyncWithNothingNewIsUpToDateThroughTheETag(_ kind: StoreKind) async throws {
        try await withSyncServer(kind) { url in
            let (a, b) = try await shared(url)
            #expect(try await !b.sync(url).pulled.upToDate, "an empty delta, whose tag is kept")
            #expect(try await b.sync(url).pulled.upToDate)
            try a.execute("UPDATE note SET body = 'Milk' WHERE id = ?", [groceries])
            _ = try await a.sync(url)
            let changed = try await b.sync(url).pulled
            #expect(!changed.upToDate && changed.updated == 1)
            #expect(try await !b.sync(url).pulled.upToDate, "the cursor moved: an empty delta again")
            #expect(try await b.sync(url).pulled.upToDate)
        }
    }

    /// A server that also syncs the players sends a Notes device none of
    /// them: the device asks for its own tables.
    @Test(arguments: StoreKind.allCases)
    func aDeviceGetsItsOwnTablesRowsAlone(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind, schema: .playersAndTestNotes) { server in
            let url = URL(string: "http://127.0.0.1:\(server.client.port)")!
            // The players of a server of two apps.
            let players = try #require(server.engine.schema.table("player"))
            let player = try players.row(id: UUID(), values: ["name": .text("Arthur"), "score": .integer(100)])
            _ = try await server.engine.applyChanges([SyncChange(mutationID: UUID(), operation: .upsert, row: player, baseVersion: nil)],
                                                     at: Date())
            let recording = RecordingPulls(base: fastTransport())
            let device = try NotesDevice()
            try device.execute("INSERT INTO notebook (id, name) VALUES (?, 'Work')", [work])
            for _ in 0..<3 { _ = try await device.sync(url, transport: recording) }
            let recorded = recording.pulls.withLock { $0 }
            #expect(recorded.count == 3, "a snapshot, then a delta and its 304")
            let tables = "tables=" + SyncSchema.testNotes.tables.map(\.name).sorted().joined(separator: ",")
            for (url, body) in recorded {
                #expect(url.query?.removingPercentEncoding?.contains(tables) == true, "\(url)")
                #expect(!body.contains("player"), "\(body)")
            }
        }
    }

    /// The server's digests and the device's agree on every row the
    /// device holds as synced; one changed behind the triggers is found,
    /// by a delta and by a sync answered 304, and a snapshot repairs it.
    @Test(arguments: StoreKind.allCases)
    func aSyncedRowChangedBehindTheTriggersIsFoundByTheDigestsAndRepaired(_ kind: StoreKind) async throws {
        try await withSyncServer(kind) { url in
            let (a, b) = try await shared(url)
            #expect(try await b.sync(url).pulled.repaired == nil)
            #expect(try await b.sync(url).pulled.upToDate)
            let tamper = "UPDATE note SET title = 'Tampered' WHERE id = ?"
            try await b.dbQueue.write { db in try db.mergingSyncChanges { try db.execute(sql: tamper, arguments: [groceries]) } }
            let upToDate = try await b.sync(url).pulled
            let repaired = try #require(upToDate.repaired, "the sync answered 304 compares the stored digests")
            // The notebooks match: the notes' digests alone say what differed.
            #expect(repaired.local.map(\.table) == ["note"] && repaired.server.map(\.table) == ["note"])
            #expect(repaired.local.map(\.rows) == [1] && repaired.server.map(\.rows) == [1])
            #expect(repaired.local.map(\.checksum) != repaired.server.map(\.checksum))
            #expect(try b.content() == a.content())

            try await b.dbQueue.write { db in try db.mergingSyncChanges { try db.execute(sql: tamper, arguments: [groceries]) } }
            try a.execute("UPDATE notebook SET name = 'Office' WHERE id = ?", [work])
            _ = try await a.sync(url)
            let delta = try await b.sync(url).pulled
            #expect(delta.repaired != nil, "the delta's last page carries the digests")
            #expect(try b.content() == a.content())
        }
    }

    @Test(arguments: StoreKind.allCases)
    func editsOfDifferentColumnsOfANoteBothSurvive(_ kind: StoreKind) async throws {
        try await withSyncServer(kind) { url in
            let (a, b) = try await shared(url)
            try a.execute("UPDATE note SET title = 'Shopping' WHERE id = ?", [groceries])
            try b.execute("UPDATE note SET body = 'Milk' WHERE id = ?", [groceries])
            _ = try await a.sync(url)
            let second = try await b.sync(url)
            #expect(second.pushed.applied == 1 && second.pushed.conflicts == 0)
            _ = try await a.sync(url)
            #expect(try a.content() == b.content())
            #expect(try a.content().contains { $0.contains("Shopping") && $0.contains("Milk") })
            #expect(try a.syncConflicts().isEmpty && b.syncConflicts().isEmpty)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func anEditOfTheSameNotebookByBothIsAConflictKept(_ kind: StoreKind) async throws {
        try await withSyncServer(kind) { url in
            let (a, b) = try await shared(url)
            try a.execute("UPDATE notebook SET name = 'Office' WHERE id = ?", [work])
            try b.execute("UPDATE notebook SET name = 'Job' WHERE id = ?", [work])
            _ = try await a.sync(url)
            let second = try await b.sync(url)
            #expect(second.pushed.conflicts == 1)
            #expect(try b.content() == a.content(), "the server's name stands on both")
            let conflict = try #require(try b.syncConflicts().first)
            #expect(conflict.localValues == ["name": .string("Job")])
            #expect(conflict.serverValues?["name"] == .string("Office"))
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aDeletedNotebookLeavesTheOtherDeviceWithItsNotes(_ kind: StoreKind) async throws {
        try await withSyncServer(kind) { url in
            let (a, b) = try await shared(url)
            try a.execute("DELETE FROM notebook WHERE id = ?", [work])
            _ = try await a.sync(url)
            _ = try await b.sync(url)
            #expect(try b.content().isEmpty)
            #expect(try b.foreignKeyViolations() == 0)
        }
    }

    /// The server answers the delete of the note with a conflict (edited
    /// there) and applies the notebook's, which takes the note with it:
    /// the note does not come back on the device without its notebook.
    @Test(arguments: StoreKind.allCases)
    func aNotebookDeletedWhileItsNoteWasEditedElsewhereGoesWithItsNoteOnEveryDevice(_ kind: StoreKind) async throws {
        try await withSyncServer(kind) { url in
            let (a, b) = try await shared(url)
            try a.execute("UPDATE note SET title = 'Shopping' WHERE id = ?", [groceries])
            _ = try await a.sync(url)
            try b.execute("DELETE FROM notebook WHERE id = ?", [work])
            let pushed = try await b.sync(url).pushed
            #expect(pushed.applied == 1 && pushed.conflicts == 1)
            _ = try await a.sync(url)
            #expect(try a.content().isEmpty && b.content().isEmpty)
            let conflict = try #require(try b.syncConflicts().first)
            #expect(conflict.localValues == nil && conflict.serverValues?["title"] == .string("Shopping"))
            #expect(try a.foreignKeyViolations() == 0 && b.foreignKeyViolations() == 0)
        }
    }

    /// Both devices change notebooks and notes while apart: adds, edits of
    /// different columns of one note, an edit of the same column, deletes,
    /// and a notebook deleted with its notes on one side while the other
    /// edits one of them. After syncs of a, b, a, both hold what the
    /// server holds (what a new device pulls), with no broken reference.
    @Test(arguments: StoreKind.allCases)
    func offlineChangesOfEveryKindConvergeAfterSyncingABA(_ kind: StoreKind) async throws {
        try await withSyncServer(kind) { url in
            let (a, b) = try await shared(url)
            let home = UUID().uuidString, plan = UUID().uuidString, old = UUID().uuidString, chores = UUID().uuidString
            try a.execute("INSERT INTO notebook (id, name) VALUES (?, 'Home')", [home])
            try a.execute("INSERT INTO note (id, notebook, title) VALUES (?, ?, 'Plan'), (?, ?, 'Old'), (?, ?, 'Chores')",
                          [plan, work, old, work, chores, home])
            _ = try await a.sync(url)
            _ = try await b.sync(url)

            let travel = UUID().uuidString, tickets = UUID().uuidString, ideas = UUID().uuidString
            try a.execute("INSERT INTO notebook (id, name) VALUES (?, 'Travel')", [travel])
            try a.execute("INSERT INTO note (id, notebook, title) VALUES (?, ?, 'Tickets')", [tickets, travel])
            try a.execute("UPDATE note SET title = 'Shopping' WHERE id = ?", [groceries])
            try a.execute("UPDATE note SET body = 'By Friday' WHERE id = ?", [plan])
            try a.execute("DELETE FROM notebook WHERE id = ?", [home])
            try b.execute("INSERT INTO note (id, notebook, title) VALUES (?, ?, 'Ideas')", [ideas, work])
            try b.execute("UPDATE note SET body = 'Milk' WHERE id = ?", [groceries])
            try b.execute("UPDATE note SET body = 'By Monday' WHERE id = ?", [plan])
            try b.execute("UPDATE note SET title = 'Chores today' WHERE id = ?", [chores])
            try b.execute("DELETE FROM note WHERE id = ?", [old])
            for device in [a, b, a] { _ = try await device.sync(url) }

            let server = try NotesDevice()
            _ = try await server.sync(url)
            #expect(try a.content() == server.content())
            #expect(try b.content() == server.content())
            #expect(try server.rowIDs("notebook") == Set([work, travel]))
            #expect(try server.rowIDs("note") == Set([groceries, plan, tickets, ideas]))
            #expect(try server.values("note", groceries) == ["title": "Shopping", "body": "Milk"])
            #expect(try server.values("note", plan) == ["title": "Plan", "body": "By Friday"])

            // The edit of the same column is one conflict, kept with both
            // values; the edit of a note whose notebook went is another.
            #expect(try a.syncConflicts().isEmpty)
            let conflicts = try b.syncConflicts()
            #expect(conflicts.count == 2)
            let samePlan = conflicts.filter { $0.rowID.uuidString == plan }
            #expect(samePlan.count == 1)
            #expect(samePlan.first?.localValues == ["body": .string("By Monday")])
            #expect(samePlan.first?.serverValues?["body"] == .string("By Friday"))
            let lostChores = conflicts.filter { $0.rowID.uuidString == chores }
            #expect(lostChores.count == 1 && lostChores.first?.serverValues == nil)
            #expect(lostChores.first?.localValues?["title"] == .string("Chores today"))

            for device in [a, b] {
                #expect(try device.foreignKeyViolations() == 0)
            }
        }
    }
}

/// Keeps each pull's URL and answer.
private final class RecordingPulls: HTTPTransport {
    let base: any HTTPTransport
    let pulls = Mutex<[(URL, String)]>([])

    init(base: any HTTPTransport) {
        self.base = base
    }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let response = try await base.send(request)
        if request.method == "GET" {
            pulls.withLock { $0.append((request.url, String(decoding: response.body, as: UTF8.self))) }
        }
        return response
    }
}
