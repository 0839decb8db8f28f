import CipherDB
import Foundation
import SyncSchema
import SyncServer
import SyncServerDatabase
import TestSupport
import Testing

/// The engine's embedded store on encrypted files: it carries out the
/// rules' plans (``SyncChangePlan``) in one transaction each, finds
/// children by their stored references, and reads rows back equal.
@Suite struct ServerSyncDatabaseTests {
    let folder: TemporaryFolder
    let changes = MemoryRows()
    let work = UUID(), home = UUID(), groceries = UUID(), comment = UUID()

    init() throws {
        folder = try TemporaryFolder()
    }

    func open() throws -> ServerSyncDatabase {
        var configuration = Configuration()
        configuration.prepareDatabase { db in try db.usePassphrase("server passphrase") }
        return try ServerSyncDatabase(DatabaseQueue(path: folder.path("server.db"), configuration: configuration), schema: .testNotes)
    }

    /// A notebook "Work" (1), its note "Groceries" (2), the note's comment (3).
    func notebookWithANoteAndAComment(_ database: ServerSyncDatabase) throws {
        let results = try database.applyChanges([
            try changes.upsert("notebook", work, ["name": .text("Work")]),
            try changes.upsert("note", groceries, ["notebook": .uuid(work), "title": .text("Groceries"), "body": .text("Milk")]),
            try changes.upsert("comment", comment, ["note": .uuid(groceries), "text": .text("Oat milk")]),
        ])
        #expect(results.map(\.version) == [1, 2, 3])
    }

    @Test func rowsAreReadBackEqualAfterReopeningTheEncryptedFile() throws {
        try notebookWithANoteAndAComment(try open())
        let database = try open()
        #expect(try database.currentVersion() == 3)
        #expect(try database.row(SyncRowKey(table: "note", id: groceries)) == SyncStoredRow(
            key: SyncRowKey(table: "note", id: groceries), version: 2,
            state: .live(values: ["notebook": .uuid(work), "title": .text("Groceries"), "body": .text("Milk")],
                         columnVersions: ["notebook": 2, "title": 2, "body": 2])))
        let header = try Data(contentsOf: folder.url("server.db")).prefix(16)
        #expect(header != Data("SQLite format 3\u{0}".utf8))
    }

    @Test func aRefusedBatchChangesNothing() throws {
        let database = try open()
        try notebookWithANoteAndAComment(database)
        let batch = [
            try changes.upsert("notebook", home, ["name": .text("Home")]),
            try changes.upsert("note", UUID(), ["notebook": .uuid(home)]),
        ]
        #expect(throws: SyncChangeError.incompleteRow(.missingColumn(table: "note", column: "title"))) {
            try database.applyChanges(batch)
        }
        #expect(try database.currentVersion() == 3)
        #expect(try database.row(SyncRowKey(table: "notebook", id: home)) == nil)
    }

    @Test func aDeleteCascadesThroughTheStoredReferences() throws {
        let database = try open()
        try notebookWithANoteAndAComment(database)
        let result = try database.applyChanges([try changes.delete("notebook", work, base: 1)])[0]
        #expect(result.version == 4)
        let tombstones = try [("notebook", work), ("note", groceries), ("comment", comment)].map { table, id in
            try database.row(SyncRowKey(table: table, id: id))
        }
        #expect(tombstones.map { $0?.isLive } == [false, false, false])
        #expect(tombstones.map { $0?.version } == [4, 5, 6])
    }

    @Test func aRowMovedToAnotherParentIsNoLongerItsOldParentsChild() throws {
        let database = try open()
        try notebookWithANoteAndAComment(database)
        _ = try database.applyChanges([try changes.upsert("notebook", home, ["name": .text("Home")])])
        _ = try database.applyChanges([try changes.upsert("note", groceries, ["notebook": .uuid(home)], base: 2)])
        _ = try database.applyChanges([try changes.delete("notebook", work, base: 1)])
        #expect(try database.row(SyncRowKey(table: "note", id: groceries))?.isLive == true)
        #expect(try database.row(SyncRowKey(table: "comment", id: comment))?.isLive == true)
    }

    @Test func changesAfterAVersionComeInVersionOrderWithTheirTombstones() throws {
        let database = try open()
        try notebookWithANoteAndAComment(database)
        _ = try database.applyChanges([try changes.delete("comment", comment, base: 3)])
        _ = try database.applyChanges([try changes.upsert("note", groceries, ["title": .text("Shopping")], base: 2)])
        let page = try #require(try database.changes(after: 1, limit: 10))
        #expect(page.counter == 5)
        #expect(page.rows.map(\.key) == [SyncRowKey(table: "comment", id: comment), SyncRowKey(table: "note", id: groceries)])
        #expect(page.rows.map(\.isLive) == [false, true])
        #expect(try database.changes(after: 1, limit: 1)?.rows.map(\.version) == [4])
        #expect(try database.changes(after: 6, limit: 10) == nil, "a version later than the counter")
    }

    @Test func snapshotPagesHoldEveryLiveRowOnce() throws {
        let database = try open()
        try notebookWithANoteAndAComment(database)
        _ = try database.applyChanges([try changes.upsert("notebook", home, ["name": .text("Home")])])
        _ = try database.applyChanges([try changes.delete("comment", comment, base: 3)])
        var keys: [SyncRowKey] = []
        var after: SyncRowKey?
        while true {
            let page = try database.snapshot(after: after, limit: 2)
            keys += page.rows.map(\.key)
            guard let last = page.rows.last else { break }
            after = last.key
        }
        #expect(keys == [SyncRowKey(table: "note", id: groceries), SyncRowKey(table: "notebook", id: work),
                         SyncRowKey(table: "notebook", id: home)].sorted())
    }

    @Test func purgedTombstonesRaiseTheFloorOfDeltas() throws {
        let database = try open()
        try notebookWithANoteAndAComment(database)
        _ = try database.applyChanges([try changes.delete("comment", comment, base: 3)], at: Date(timeIntervalSince1970: 1_000))
        try database.purgeTombstones(olderThan: 60, now: Date(timeIntervalSince1970: 2_000))
        #expect(try database.row(SyncRowKey(table: "comment", id: comment)) == nil)
        #expect(try database.changes(after: 3, limit: 10) == nil, "the tombstone of version 4 is gone")
        #expect(try database.changes(after: 4, limit: 10)?.rows.isEmpty == true)
    }

    @Test func aRetryAfterReopeningGetsTheRecordedConflict() throws {
        try notebookWithANoteAndAComment(try open())
        _ = try open().applyChanges([try changes.upsert("notebook", work, ["name": .text("Office")], base: 1)])
        let stale = try changes.upsert("notebook", work, ["name": .text("Job")], base: 1)
        let first = try open().applyChanges([stale])
        _ = try open().applyChanges([try changes.upsert("notebook", work, ["name": .text("Studio")], base: 4)])
        let again = try open().applyChanges([stale])
        #expect(first == again)
        #expect(again[0].status == .conflict)
        #expect(again[0].serverRow?.values == ["name": .text("Office")])
    }
}
