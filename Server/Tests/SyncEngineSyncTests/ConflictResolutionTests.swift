import CipherDB
import Foundation
import ServerTestSupport
import SyncEngine
import SyncSchema
import TestSupport
import Testing

/// Settling a conflict of any declared table, through the real server on
/// both stores: the local value kept is pushed on top of the server's and
/// reaches the other device; the server's kept leaves nothing to push; a
/// row deleted on the server comes back when kept, unless a row it refers
/// to is gone too.
@Suite struct ConflictResolutionTests {
    let work = UUID().uuidString, groceries = UUID().uuidString

    /// Devices `a` and `b` that share a notebook "Work" with a note
    /// "Groceries", after `change` on each and syncs of a then b.
    func conflicted(_ url: URL, a changeA: String, b changeB: String) async throws -> (a: NotesDevice, b: NotesDevice) {
        let (a, b) = (try NotesDevice(), try NotesDevice())
        try a.execute("INSERT INTO notebook (id, name) VALUES (?, 'Work')", [work])
        try a.execute("INSERT INTO note (id, notebook, title) VALUES (?, ?, 'Groceries')", [groceries, work])
        _ = try await a.sync(url)
        _ = try await b.sync(url)
        try a.execute(changeA, ["id": changeA.contains("notebook") ? work : groceries])
        try b.execute(changeB, ["id": changeB.contains("notebook") ? work : groceries])
        _ = try await a.sync(url)
        let pushed = try await b.sync(url).pushed
        try #require(pushed.conflicts == 1)
        return (a, b)
    }

    func resolve(_ device: NotesDevice, _ table: String, _ id: String, keepLocal: Bool) throws {
        try device.dbQueue.write { db in
            try #require(try db.resolveSyncConflicts(table: table, rowID: UUID(uuidString: id)!, keepLocal: keepLocal, schema: device.schema))
        }
    }

    @Test(arguments: StoreKind.allCases)
    func theLocalValueKeptIsPushedOnTopOfTheServersAndReachesTheOtherDevice(_ kind: StoreKind) async throws {
        try await withSyncServer(kind) { url in
            let (a, b) = try await conflicted(url, a: "UPDATE notebook SET name = 'Office' WHERE id = :id",
                                              b: "UPDATE notebook SET name = 'Job' WHERE id = :id")
            try resolve(b, "notebook", work, keepLocal: true)
            #expect(try b.syncConflicts().isEmpty)
            let pushed = try await b.sync(url).pushed
            #expect(pushed.applied == 1 && pushed.conflicts == 0)
            _ = try await a.sync(url)
            #expect(try a.values("notebook", work) == ["name": "Job"])
            #expect(try a.content() == b.content())
        }
    }

    @Test(arguments: StoreKind.allCases)
    func theServersValueKeptLeavesNothingToPush(_ kind: StoreKind) async throws {
        try await withSyncServer(kind) { url in
            let (a, b) = try await conflicted(url, a: "UPDATE note SET title = 'Shopping' WHERE id = :id",
                                              b: "UPDATE note SET title = 'Errands' WHERE id = :id")
            try resolve(b, "note", groceries, keepLocal: false)
            #expect(try b.syncConflicts().isEmpty)
            #expect(try await b.sync(url).pushed == SyncPushCounts())
            #expect(try b.values("note", groceries) == ["title": "Shopping", "body": nil])
            #expect(try a.content() == b.content())
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aNoteDeletedOnTheServerComesBackWhenKept(_ kind: StoreKind) async throws {
        try await withSyncServer(kind) { url in
            let (a, b) = try await conflicted(url, a: "DELETE FROM note WHERE id = :id",
                                              b: "UPDATE note SET body = 'Milk' WHERE id = :id")
            #expect(try b.rowIDs("note").isEmpty)
            let conflict = try #require(try b.syncConflicts().first)
            #expect(conflict.serverValues == nil)
            #expect(conflict.localValues == ["notebook": .string(work), "title": .string("Groceries"), "body": .string("Milk")],
                    "the whole row is kept, to bring it back")
            try resolve(b, "note", groceries, keepLocal: true)
            let pushed = try await b.sync(url).pushed
            #expect(pushed.applied == 1 && pushed.conflicts == 0)
            _ = try await a.sync(url)
            #expect(try a.values("note", groceries) == ["title": "Groceries", "body": "Milk"])
            #expect(try a.content() == b.content())
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aNoteWhoseNotebookIsDeletedCannotComeBack(_ kind: StoreKind) async throws {
        try await withSyncServer(kind) { url in
            let (_, b) = try await conflicted(url, a: "DELETE FROM notebook WHERE id = :id",
                                              b: "UPDATE note SET body = 'Milk' WHERE id = :id")
            let before = try b.syncConflicts()
            #expect(throws: SyncEngineError.referencedRowGone(table: "note", id: UUID(uuidString: groceries)!, parent: "notebook")) {
                try resolve(b, "note", groceries, keepLocal: true)
            }
            #expect(try b.syncConflicts() == before, "nothing changed")
            #expect(try b.rowIDs("note").isEmpty)
            try resolve(b, "note", groceries, keepLocal: false)
            #expect(try b.syncConflicts().isEmpty)
        }
    }
}
