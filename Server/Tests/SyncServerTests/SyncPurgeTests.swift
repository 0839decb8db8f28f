import Foundation
import SyncSchema
import SyncServer
import Testing

/// What a store forgets after the retention (``SyncPurge``), and which
/// deltas it can then answer (``SyncCounter``), on rows in memory.
@Suite struct SyncPurgeTests {
    let work = UUID(), home = UUID(), office = UUID()

    /// Three notebooks (versions 1 to 3); Work deleted at 1,000 s (4), Home
    /// at 2,000 s (5).
    func notebooksWithTwoDeleted() throws -> MemoryRows {
        var store = MemoryRows()
        _ = try store.apply([work, home, office].map { try store.upsert("notebook", $0, ["name": .text("Notebook")]) },
                            at: Date(timeIntervalSince1970: 0))
        _ = try store.apply([try store.delete("notebook", work, base: 1)], at: Date(timeIntervalSince1970: 1_000))
        _ = try store.apply([try store.delete("notebook", home, base: 2)], at: Date(timeIntervalSince1970: 2_000))
        return store
    }

    @Test func tombstonesDeletedBeforeTheRetentionAreForgottenAndTheFloorRisesToTheNewest() throws {
        var store = try notebooksWithTwoDeleted()
        store.purge(olderThan: 600, now: Date(timeIntervalSince1970: 2_100))
        #expect(store.row("notebook", work) == nil)
        #expect(store.row("notebook", home)?.version == 5, "deleted 100 s before: kept")
        #expect(store.row("notebook", office)?.isLive == true)
        #expect(store.floor == 4)
        store.purge(olderThan: 600, now: Date(timeIntervalSince1970: 3_000))
        #expect(store.row("notebook", home) == nil)
        #expect(store.floor == 5)
    }

    @Test func theFloorNeverGoesDown() throws {
        var store = try notebooksWithTwoDeleted()
        // Office deleted (6) with the date of an earlier one: purged first.
        _ = try store.apply([try store.delete("notebook", office, base: 3)], at: Date(timeIntervalSince1970: 500))
        store.purge(olderThan: 0, now: Date(timeIntervalSince1970: 600))
        #expect(store.floor == 6)
        store.purge(olderThan: 0, now: Date(timeIntervalSince1970: 3_000))
        #expect(store.rows.isEmpty)
        #expect(store.floor == 6, "the tombstones of 4 and 5, purged later, leave it")
        #expect(SyncPurge(olderThan: 0, now: Date()).raisedFloor(from: 6, newestPurged: nil) == nil)
    }

    @Test func answersGivenBeforeTheLimitAreForgottenWithTheTombstones() throws {
        var store = MemoryRows()
        let old = try store.upsert("notebook", work, ["name": .text("Work")])
        let recent = try store.upsert("notebook", home, ["name": .text("Home")])
        _ = try store.apply([old], at: Date(timeIntervalSince1970: 1_000))
        _ = try store.apply([recent], at: Date(timeIntervalSince1970: 2_000))
        store.purge(olderThan: 600, now: Date(timeIntervalSince1970: 2_100))
        #expect(Set(store.answers.keys) == [recent.mutationID])
        // Sent again, the forgotten one is judged again: its row exists.
        #expect(try store.apply(old).status == .conflict)
        #expect(try store.apply(recent) == SyncPushResult(mutationID: recent.mutationID, status: .applied, version: 2))
    }

    @Test func aDeltaAfterAVersionBelowTheFloorOrAboveTheCounterIsRefused() throws {
        var store = try notebooksWithTwoDeleted()
        store.purge(olderThan: 600, now: Date(timeIntervalSince1970: 2_100))
        #expect(store.changes(after: 3) == nil, "the tombstone of version 4 is gone")
        #expect(store.changes(after: 4)?.map(\.version) == [5])
        #expect(store.changes(after: 5)?.isEmpty == true)
        #expect(store.changes(after: 6) == nil, "a version this history never gave")
    }
}
