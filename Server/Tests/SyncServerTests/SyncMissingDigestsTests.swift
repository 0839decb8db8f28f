import Foundation
import ServerTestSupport
import SyncSchema
import SyncServer
import Testing

/// The digests a store makes anew when it opens (``SyncMissingDigests``),
/// on rows in memory.
@Suite struct SyncMissingDigestsTests {
    /// Five notebooks, the third deleted, ids in order.
    func fiveNotebooksOneDeleted() throws -> (MemoryRows, [UUID]) {
        var store = MemoryRows()
        let ids = (0..<5).map { _ in UUID() }.sorted { $0.uuidString < $1.uuidString }
        _ = try store.apply(ids.map { try store.upsert("notebook", $0, ["name": .text("Notebook")]) })
        _ = try store.apply([try store.delete("notebook", ids[2], base: 3)])
        return (store, ids)
    }

    /// The digests of `schema`'s tables, from every live row of `store`.
    func computed(_ store: MemoryRows, schema: SyncSchema = .testNotes) -> [SyncTableDigest] {
        let hasher = SyncRowHasher()
        return schema.tables.map { table in
            var digest = SyncTableDigest(table: table)
            for row in store.rows.values where row.key.table == table.name { digest.add(row, in: table, hasher: hasher) }
            return digest
        }
    }

    @Test func aTableWithoutADigestIsDigestedFromEveryLiveRowAChunkAtATime() throws {
        let (store, ids) = try fiveNotebooksOneDeleted()
        let digests = computed(store)
        let (saved, requests) = store.makeMissingDigests(kept: digests.filter { $0.table != "notebook" }, chunkSize: 2)
        #expect(saved == digests.filter { $0.table == "notebook" })
        #expect(saved.first?.rows == 4)
        #expect(requests == [
            .liveRows(table: "notebook", after: nil, limit: 2),
            .liveRows(table: "notebook", after: ids[1], limit: 2),
            .liveRows(table: "notebook", after: ids[4], limit: 2),
            .save(digests.first { $0.table == "notebook" }!, partitions: []),
        ])
    }

    @Test func aDigestOfOtherColumnsIsMadeAnewAndOneOfTheDeclaredColumnsIsKept() throws {
        let (store, _) = try fiveNotebooksOneDeleted()
        let earlier = computed(store)
        let later = computed(store, schema: .testNotesNextVersion)
        var laterStore = store
        laterStore.schema = .testNotesNextVersion
        // The earlier declaration's digests: those of the tables that
        // gained a column (note, notebook) cover other columns.
        let (saved, _) = laterStore.makeMissingDigests(kept: earlier, chunkSize: 10)
        #expect(saved.map(\.table) == ["notebook", "note"])
        #expect(saved == later.filter { ["notebook", "note"].contains($0.table) })
        #expect(store.makeMissingDigests(kept: earlier, chunkSize: 10).saved.isEmpty)
    }
}
