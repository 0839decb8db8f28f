import CipherDB
import CipherSync
import Foundation
import ServerTestSupport
import SyncEngine
import SyncSchema
import TestSupport
import Testing

/// The replicator's per-row events (``CipherSync/SyncEvent``), through the
/// real server on both stores: a conflict kept, and the rows a delete on
/// another device removes.
@Suite struct SyncReplicatorEventsTests {
    let work = UUID(), groceries = UUID()

    /// The events of `replicator` until it stops.
    func events(of replicator: SyncReplicator, _ body: () async throws -> Void) async throws -> [SyncEvent] {
        let stream = replicator.events()
        try await body()
        await replicator.stop()
        var events: [SyncEvent] = []
        for await event in stream { events.append(event) }
        return events
    }

    @Test(arguments: StoreKind.allCases)
    func aChangeThatLostToTheServersIsToldAsAConflictKept(_ kind: StoreKind) async throws {
        try await withSyncServer(kind) { url in
            let (a, b) = (try NotesDevice(), try NotesDevice())
            try a.execute("INSERT INTO notebook (id, name) VALUES (?, 'Work')", [work.uuidString])
            _ = try await a.sync(url)
            _ = try await b.sync(url)
            try a.execute("UPDATE notebook SET name = 'Office'")
            try b.execute("UPDATE notebook SET name = 'Job'")
            _ = try await a.sync(url)
            let replicator = b.replicator(url)
            let told = try await events(of: replicator) {
                let report = try await replicator.syncNow()
                #expect(report.push.counts.conflicts == 1)
            }
            let kept = told.compactMap { event -> SyncConflict? in
                if case .conflictKept(let conflict) = event { return conflict }
                return nil
            }
            #expect(kept.map(\.rowID) == [work])
            #expect(kept.first?.localValues == ["name": .string("Job")])
            #expect(kept.first?.serverValues?["name"] == .string("Office"))
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aNotebookDeletedOnAnotherDeviceIsToldRemovedWithItsNotes(_ kind: StoreKind) async throws {
        try await withSyncServer(kind) { url in
            let (a, b) = (try NotesDevice(), try NotesDevice())
            try a.execute("INSERT INTO notebook (id, name) VALUES (?, 'Work')", [work.uuidString])
            try a.execute("INSERT INTO note (id, notebook, title) VALUES (?, ?, 'Groceries')", [groceries.uuidString, work.uuidString])
            _ = try await a.sync(url)
            _ = try await b.sync(url)
            try a.execute("DELETE FROM notebook")
            _ = try await a.sync(url)
            let replicator = b.replicator(url)
            let told = try await events(of: replicator) {
                let report = try await replicator.syncNow()
                #expect(report.pull.deleted == 2)
            }
            let removed = told.compactMap { event -> SyncRowReference? in
                if case .rowRemoved(let row) = event { return row }
                return nil
            }
            // Children first, as the merge deletes them.
            #expect(removed == [SyncRowReference(table: "note", id: groceries), SyncRowReference(table: "notebook", id: work)])
            #expect(try b.rowIDs("notebook").isEmpty)
        }
    }
}
