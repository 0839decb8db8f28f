import Foundation
import ServerTestSupport
import SyncSchema
import SyncServer
import SyncServerEmbedded
import TestSupport
import Testing

/// The engine's two stores, the embedded one on an encrypted file and
/// PostgreSQL's: each carries out the rules' plans (``SyncChangePlan``) in
/// one transaction, finds children by their stored references, reads rows
/// back equal, and pages changes and snapshots alike.
@Suite struct SyncStoreTests {
    let changes = MemoryRows()
    let work = UUID(), home = UUID(), groceries = UUID(), comment = UUID()

    /// A notebook "Work" (1), its note "Groceries" (2), the note's comment (3).
    func notebookWithANoteAndAComment(_ store: any SyncRowStore) async throws {
        let results = try await store.applyChanges([
            try changes.upsert("notebook", work, ["name": .text("Work")]),
            try changes.upsert("note", groceries, ["notebook": .uuid(work), "title": .text("Groceries"), "body": .text("Milk")]),
            try changes.upsert("comment", comment, ["note": .uuid(groceries), "text": .text("Oat milk")]),
        ])
        #expect(results.map(\.version) == [1, 2, 3])
    }

    @Test(arguments: StoreKind.allCases)
    func rowsAreReadBackEqualByAnotherInstance(_ kind: StoreKind) async throws {
        try await TestSyncStore.with(kind) { store, sandbox in
            try await notebookWithANoteAndAComment(store)
            let other = try await TestSyncStore.open(sandbox)
            let (version, note) = (try await other.currentVersion(), try await other.row("note", groceries))
            try await other.close()
            #expect(version == 3)
            #expect(note == SyncStoredRow(
                key: SyncRowKey(table: "note", id: groceries), version: 2,
                state: .live(values: ["notebook": .uuid(work), "title": .text("Groceries"), "body": .text("Milk")],
                             columnVersions: ["notebook": 2, "title": 2, "body": 2])))
            if kind == .embedded {
                let header = try Data(contentsOf: URL(fileURLWithPath: sandbox.databasePath)).prefix(16)
                #expect(header != Data("SQLite format 3\u{0}".utf8))
            }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func everyInstanceNamesTheSameHistory(_ kind: StoreKind) async throws {
        try await TestSyncStore.with(kind) { store, sandbox in
            let other = try await TestSyncStore.open(sandbox)
            try await other.close()
            #expect(other.history == store.history)
            #expect(store.history.epochs.count == 1)
            #expect(store.history.cursor(at: 0).counter == 0)
        }
    }

    @Test func aDatabaseOfALaterSchemaIsRefusedAndLeftUnchanged() async throws {
        try await StoreSandbox.with(.embedded) { sandbox in
            let pool = try sandbox.embeddedPool()
            _ = try ServerSyncDatabase(pool, schema: .testNotes)
            try await pool.write { db in try db.execute(sql: "UPDATE sync_server_schema_version SET version = 99") }
            #expect(throws: SyncStoreError.newerSchema(version: 99, supported: 7)) {
                try ServerSyncDatabase(pool, schema: .testNotes)
            }
            let version = try await pool.read { db in try Int.fetchOne(db, sql: "SELECT version FROM sync_server_schema_version") }
            #expect(version == 99)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aRefusedBatchChangesNothing(_ kind: StoreKind) async throws {
        try await TestSyncStore.with(kind) { store, _ in
            try await notebookWithANoteAndAComment(store)
            let batch = [
                try changes.upsert("notebook", home, ["name": .text("Home")]),
                try changes.upsert("note", UUID(), ["notebook": .uuid(home)]),
            ]
            await #expect(throws: SyncChangeError.incompleteRow(.missingColumn(table: "note", column: "title"))) {
                try await store.applyChanges(batch)
            }
            #expect(try await store.currentVersion() == 3)
            #expect(try await store.row("notebook", home) == nil)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aDeleteCascadesThroughTheStoredReferences(_ kind: StoreKind) async throws {
        try await TestSyncStore.with(kind) { store, _ in
            try await notebookWithANoteAndAComment(store)
            let result = try await store.applyChanges([try changes.delete("notebook", work, base: 1)])[0]
            #expect(result.version == 4)
            var tombstones: [SyncStoredRow?] = []
            for (table, id) in [("notebook", work), ("note", groceries), ("comment", comment)] {
                tombstones.append(try await store.row(table, id))
            }
            #expect(tombstones.map { $0?.isLive } == [false, false, false])
            #expect(tombstones.map { $0?.version } == [4, 5, 6])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aRowMovedToAnotherParentIsNoLongerItsOldParentsChild(_ kind: StoreKind) async throws {
        try await TestSyncStore.with(kind) { store, _ in
            try await notebookWithANoteAndAComment(store)
            _ = try await store.applyChanges([try changes.upsert("notebook", home, ["name": .text("Home")])])
            _ = try await store.applyChanges([try changes.upsert("note", groceries, ["notebook": .uuid(home)], base: 2)])
            _ = try await store.applyChanges([try changes.delete("notebook", work, base: 1)])
            #expect(try await store.row("note", groceries)?.isLive == true)
            #expect(try await store.row("comment", comment)?.isLive == true)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func changesAfterAVersionComeInVersionOrderWithTheirTombstones(_ kind: StoreKind) async throws {
        try await TestSyncStore.with(kind) { store, _ in
            try await notebookWithANoteAndAComment(store)
            _ = try await store.applyChanges([try changes.delete("comment", comment, base: 3)])
            _ = try await store.applyChanges([try changes.upsert("note", groceries, ["title": .text("Shopping")], base: 2)])
            let page = try #require(try await store.changes(after: 1, limit: 10))
            #expect(page.counter == 5)
            #expect(page.rows.map(\.key) == [SyncRowKey(table: "comment", id: comment), SyncRowKey(table: "note", id: groceries)])
            #expect(page.rows.map(\.isLive) == [false, true])
            #expect(try await store.changes(after: 1, limit: 1)?.rows.map(\.version) == [4])
            #expect(try await store.changes(after: 6, limit: 10) == nil, "a version later than the counter")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func snapshotPagesHoldEveryLiveRowOnce(_ kind: StoreKind) async throws {
        try await TestSyncStore.with(kind) { store, _ in
            try await notebookWithANoteAndAComment(store)
            _ = try await store.applyChanges([try changes.upsert("notebook", home, ["name": .text("Home")])])
            _ = try await store.applyChanges([try changes.delete("comment", comment, base: 3)])
            var keys: [SyncRowKey] = []
            var after: SyncRowKey?
            while true {
                let page = try await store.snapshot(after: after, limit: 2)
                keys += page.rows.map(\.key)
                guard let last = page.rows.last else { break }
                after = last.key
            }
            #expect(keys == [SyncRowKey(table: "note", id: groceries), SyncRowKey(table: "notebook", id: work),
                             SyncRowKey(table: "notebook", id: home)].sorted())
        }
    }

    @Test(arguments: StoreKind.allCases)
    func purgedTombstonesRaiseTheFloorOfDeltas(_ kind: StoreKind) async throws {
        try await TestSyncStore.with(kind) { store, _ in
            try await notebookWithANoteAndAComment(store)
            _ = try await store.applyChanges([try changes.delete("comment", comment, base: 3)], at: Date(timeIntervalSince1970: 1_000))
            try await store.purgeTombstones(olderThan: 60, now: Date(timeIntervalSince1970: 2_000))
            #expect(try await store.row("comment", comment) == nil)
            #expect(try await store.changes(after: 3, limit: 10) == nil, "the tombstone of version 4 is gone")
            #expect(try await store.changes(after: 4, limit: 10)?.rows.isEmpty == true)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aRetryThroughAnotherInstanceGetsTheRecordedConflict(_ kind: StoreKind) async throws {
        try await TestSyncStore.with(kind) { store, sandbox in
            try await notebookWithANoteAndAComment(store)
            _ = try await store.applyChanges([try changes.upsert("notebook", work, ["name": .text("Office")], base: 1)])
            let stale = try changes.upsert("notebook", work, ["name": .text("Job")], base: 1)
            let first = try await store.applyChanges([stale])
            _ = try await store.applyChanges([try changes.upsert("notebook", work, ["name": .text("Studio")], base: 4)])
            let other = try await TestSyncStore.open(sandbox)
            let again = try await other.applyChanges([stale])
            try await other.close()
            #expect(first == again)
            #expect(again[0].status == .conflict)
            #expect(again[0].serverRow?.values == ["name": .text("Office")])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aMutationIDSentAgainWithOtherValuesIsRefusedByAnotherInstance(_ kind: StoreKind) async throws {
        try await TestSyncStore.with(kind) { store, sandbox in
            try await notebookWithANoteAndAComment(store)
            let first = try changes.upsert("notebook", work, ["name": .text("Office")], base: 1)
            let answer = try await store.applyChanges([first])
            var other = try changes.upsert("notebook", work, ["name": .text("Studio")], base: 1)
            other.mutationID = first.mutationID
            let instance = try await TestSyncStore.open(sandbox)
            await #expect(throws: SyncChangeError.mutationIDReused(first.mutationID, answeredFor: SyncRowKey(table: "notebook", id: work))) {
                try await instance.applyChanges([other])
            }
            #expect(try await instance.applyChanges([first]) == answer)
            #expect(try await instance.row(SyncRowKey(table: "notebook", id: work))?.values == ["name": .text("Office")])
            try await instance.close()
        }
    }

    /// The digests the stored live rows make, computed from a whole
    /// snapshot.
    func recomputedDigests(_ store: any SyncRowStore) async throws -> [SyncTableDigest] {
        let hasher = SyncRowHasher()
        var digests = Dictionary(uniqueKeysWithValues: store.schema.tables.map { ($0.name, SyncTableDigest(table: $0)) })
        var after: SyncRowKey?
        while true {
            let page = try await store.snapshot(after: after, limit: 2)
            for row in page.rows { digests[row.key.table]!.add(row, in: store.schema.table(row.key.table)!, hasher: hasher) }
            guard let last = page.rows.last else { break }
            after = last.key
        }
        return digests.values.sorted { $0.table < $1.table }
    }

    @Test(arguments: StoreKind.allCases)
    func theDigestsFollowEveryWriteAsIfComputedAnew(_ kind: StoreKind) async throws {
        try await TestSyncStore.with(kind) { store, _ in
            let empty = store.schema.tables.map { SyncTableDigest(table: $0) }.sorted { $0.table < $1.table }
            #expect(try await store.snapshot(after: nil, limit: 10).digests == empty)
            try await notebookWithANoteAndAComment(store)
            _ = try await store.applyChanges([try changes.upsert("notebook", home, ["name": .text("Home")])])
            _ = try await store.applyChanges([try changes.upsert("note", groceries, ["title": .text("Shopping")], base: 2)])
            var digests = try await store.changes(after: 0, limit: 10)?.digests
            #expect(digests == (try await recomputedDigests(store)))
            #expect(digests?.first { $0.table == "note" }?.rows == 1)
            // A delete that cascades takes the note and its comment out.
            _ = try await store.applyChanges([try changes.delete("notebook", work, base: 1)])
            digests = try await store.changes(after: 0, limit: 10)?.digests
            #expect(digests == (try await recomputedDigests(store)))
            #expect(digests?.map(\.rows) == [0, 0, 1, 0, 0], "comment, note, notebook, pin, share")
        }
    }

    /// A read of as many rows as asked is not a last page: no digest is
    /// read for it.
    @Test(arguments: StoreKind.allCases)
    func aFullReadCarriesNoDigests(_ kind: StoreKind) async throws {
        try await TestSyncStore.with(kind) { store, _ in
            try await notebookWithANoteAndAComment(store)
            #expect(try await store.snapshot(after: nil, limit: 3).digests.isEmpty)
            #expect(try await store.snapshot(after: nil, limit: 4).digests.count == store.schema.tables.count)
            #expect(try await store.changes(after: 0, limit: 3)?.digests.isEmpty == true)
            #expect(try await store.changes(after: 0, limit: 4)?.digests.count == store.schema.tables.count)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aLaterDeclarationMakesItsDigestsAnewAndTheEarlierOnesWritesDoNotLeaveThemWrong(_ kind: StoreKind) async throws {
        try await TestSyncStore.with(kind) { store, sandbox in
            try await notebookWithANoteAndAComment(store)
            let later = try await TestSyncStore.open(sandbox, schema: .testNotesNextVersion)
            let laterDigests = try await later.snapshot(after: nil, limit: 100).digests
            #expect(laterDigests == (try await recomputedDigests(later)))
            #expect(laterDigests.map(\.columns) == SyncSchema.testNotesNextVersion.tables.sorted { $0.name < $1.name }
                .map(SyncTableDigest.columns(of:)))
            // The earlier declaration's digests of the tables that gained a
            // column are not true any longer: it gives none; its write
            // leaves the later one's marked too.
            #expect(try await store.snapshot(after: nil, limit: 100).digests.map(\.table) == ["comment", "pin", "share"])
            _ = try await store.applyChanges([try changes.upsert("notebook", home, ["name": .text("Home")])])
            #expect(try await later.snapshot(after: nil, limit: 100).digests.map(\.table) == ["comment", "note", "pin", "share"],
                    "the notebook's digest, which the earlier declaration's write did not keep, is not given")
            try await later.close()
            let reopened = try await TestSyncStore.open(sandbox, schema: .testNotesNextVersion)
            let made = try await reopened.snapshot(after: nil, limit: 100).digests
            let recomputed = try await recomputedDigests(reopened)
            try await reopened.close()
            #expect(made == recomputed, "made anew when it opened")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aWriteIntoATableRequiredEmptyWritesNothingOnceItHasRows(_ kind: StoreKind) async throws {
        try await TestSyncStore.with(kind) { store, _ in
            let first = try await store.apply(SyncWrite([try changes.upsert("notebook", work, ["name": .text("Work")])],
                                                        requiresNoRowsIn: "notebook"), at: Date())
            #expect(first?.map(\.version) == [1])
            let second = try await store.apply(SyncWrite([try changes.upsert("notebook", home, ["name": .text("Home")])],
                                                         requiresNoRowsIn: "notebook"), at: Date())
            #expect(second == nil)
            #expect(try await store.currentVersion() == 1)
            #expect(try await store.row("notebook", home) == nil)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aWriteThatKeepsNoAnswersIsAppliedAgainWhenSentAgain(_ kind: StoreKind) async throws {
        try await TestSyncStore.with(kind) { store, _ in
            try await notebookWithANoteAndAComment(store)
            let rename = try changes.upsert("notebook", work, ["name": .text("Office")], base: 1)
            #expect(try await store.apply(SyncWrite([rename], keepsAnswers: false), at: Date())?.map(\.status) == [.applied])
            // No answer kept: the same mutation id is a new change, here
            // one made on a version that is gone.
            #expect(try await store.apply(SyncWrite([rename], keepsAnswers: false), at: Date())?.map(\.status) == [.conflict])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func readsOfSomeTablesLeaveOutTheOthers(_ kind: StoreKind) async throws {
        try await TestSyncStore.with(kind) { store, _ in
            try await notebookWithANoteAndAComment(store)
            _ = try await store.applyChanges([try changes.upsert("notebook", home, ["name": .text("Home")])])
            _ = try await store.applyChanges([try changes.delete("comment", comment, base: 3)])
            let notebooks = try #require(try await store.changes(after: 0, limit: 10, tables: SyncTableFilter(["notebook"])))
            #expect(notebooks.rows.map(\.version) == [1, 4] && notebooks.counter == 5)
            #expect(try await store.changes(after: 0, limit: 10, tables: SyncTableFilter(["comment"]))?.rows.map(\.isLive) == [false])
            let notesAndNotebooks = try #require(try await store.changes(after: 0, limit: 10, tables: SyncTableFilter(["notebook", "note"])))
            #expect(notesAndNotebooks.rows.map(\.version) == [1, 2, 4])

            // A snapshot a row at a time, from another table's key: the
            // tables in key order, each from its first row.
            var keys: [SyncRowKey] = []
            var after: SyncRowKey? = SyncRowKey(table: "comment", id: comment)
            while true {
                let page = try await store.snapshot(after: after, limit: 1, tables: SyncTableFilter(["notebook", "note"]))
                guard let last = page.rows.last else { break }
                keys.append(last.key)
                after = last.key
            }
            let notebookIDs = [work, home].sorted { $0.uuidString < $1.uuidString }
            #expect(keys == [SyncRowKey(table: "note", id: groceries)] + notebookIDs.map { SyncRowKey(table: "notebook", id: $0) })
            // Two tables on one page.
            let page = try await store.snapshot(after: nil, limit: 10, tables: SyncTableFilter(["notebook", "note"]))
            #expect(page.rows.map(\.key) == keys)
        }
    }

    /// A user's snapshot pages, of every size: the shared table's rows (a
    /// page may continue in it), then their rows and their groups' of the
    /// other tables, each once,
    /// in key order, across the tables that one read of partitions covers
    /// (diary, member, note, notebook); never another user's, never a
    /// deleted one.
    @Test(arguments: StoreKind.allCases)
    func aUsersSnapshotPagesHoldTheRowsTheyReadOnceInKeyOrder(_ kind: StoreKind) async throws {
        try await TestSyncStore.with(kind, schema: .testUsers) { store, _ in
            let rows = MemoryRows(schema: .testUsers)
            let alice = SyncUser(name: "alice", roles: ["editor"]), bob = SyncUser(name: "bob", roles: [])
            let shared = UUID(), sharedNote = UUID(), membership = UUID(), board = UUID(), news = UUID(), aliceDiary = UUID()
            let own = UUID(), ownNote = UUID(), bobDiary = UUID(), deletedDiary = UUID()
            let byAlice = try await store.apply(SyncWrite([
                try rows.upsert("notebook", shared, ["name": .text("Shared")]),
                try rows.upsert("note", sharedNote, ["notebook": .uuid(shared), "title": .text("Plan")]),
                try rows.upsert("member", membership, ["notebook": .uuid(shared), "user": .text("bob")]),
                try rows.upsert("diary", aliceDiary, ["text": .text("Alice's")]),
                try rows.upsert("board", board, ["text": .text("Rules")]),
                try rows.upsert("board", news, ["text": .text("News")]),
            ], by: alice), at: Date())
            let byBob = try await store.apply(SyncWrite([
                try rows.upsert("notebook", own, ["name": .text("Own")]),
                try rows.upsert("note", ownNote, ["notebook": .uuid(own), "title": .text("Mine")]),
                try rows.upsert("diary", bobDiary, ["text": .text("Bob's")]),
                try rows.upsert("diary", deletedDiary, ["text": .text("Gone")]),
            ], by: bob), at: Date())
            #expect((byAlice ?? []).map(\.status) + (byBob ?? []).map(\.status) == Array(repeating: .applied, count: 10))
            let deleted = try await store.apply(SyncWrite([try rows.delete("diary", deletedDiary, base: 10)], by: bob), at: Date())
            #expect(deleted?.map(\.status) == [.applied])

            let expected = [SyncRowKey(table: "board", id: board), SyncRowKey(table: "board", id: news), SyncRowKey(table: "diary", id: bobDiary),
                            SyncRowKey(table: "member", id: membership)]
                + [sharedNote, ownNote].map { SyncRowKey(table: "note", id: $0) } + [shared, own].map { SyncRowKey(table: "notebook", id: $0) }
            for limit in [1, 2, 3, 100] {
                let keys = try await snapshotKeys(store, for: bob, limit: limit, rows: expected.count)
                #expect(keys == expected.sorted(), "limit \(limit)")
            }
        }
    }

    /// The keys of the pages of `user`'s snapshot, `limit` rows a page,
    /// until a page holds fewer: at most a page more than `rows`, so that
    /// a page that does not move on fails rather than hangs.
    func snapshotKeys(_ store: any SyncRowStore, for user: SyncUser, limit: Int, rows: Int) async throws -> [SyncRowKey] {
        var keys: [SyncRowKey] = []
        var after: SyncRowKey?
        for _ in 0...rows {
            let page = try await store.snapshot(after: after, limit: limit, tables: nil, for: user)
            keys += page.rows.map(\.key)
            guard page.rows.count == limit, let last = page.rows.last else { break }
            after = last.key
        }
        return keys
    }

    /// A member of more groups than the embedded store merges in one
    /// statement (``ServerSyncDatabase/mergedPartitionsLimit``) reads each
    /// group's rows once, in key order, as a member of a few does.
    @Test(arguments: StoreKind.allCases)
    func aUsersSnapshotPagesOfManyGroupsHoldTheirRowsOnceInKeyOrder(_ kind: StoreKind) async throws {
        try await TestSyncStore.with(kind, schema: .testUsers) { store, _ in
            let rows = MemoryRows(schema: .testUsers)
            let alice = SyncUser(name: "alice", roles: []), bob = SyncUser(name: "bob", roles: [])
            var changes: [SyncChange] = []
            var expected: [SyncRowKey] = []
            for index in 0..<(ServerSyncDatabase.mergedPartitionsLimit + 4) {
                let notebook = UUID(), note = UUID(), member = UUID()
                changes += [
                    try rows.upsert("notebook", notebook, ["name": .text("Shared \(index)")]),
                    try rows.upsert("note", note, ["notebook": .uuid(notebook), "title": .text("Note \(index)")]),
                    try rows.upsert("member", member, ["notebook": .uuid(notebook), "user": .text("bob")]),
                ]
                expected += [SyncRowKey(table: "notebook", id: notebook), SyncRowKey(table: "note", id: note),
                             SyncRowKey(table: "member", id: member)]
            }
            let answers = try await store.apply(SyncWrite(changes, by: alice), at: Date())
            #expect(answers?.map(\.status) == Array(repeating: .applied, count: changes.count))
            for limit in [1, 7, 100] {
                let keys = try await snapshotKeys(store, for: bob, limit: limit, rows: expected.count)
                #expect(keys == expected.sorted(), "limit \(limit)")
            }
        }
    }

    /// An end-to-end table is stored as its server view: its sealed value
    /// is kept and read back as written, its declared columns are refused
    /// in the clear, and the declaration kept is the declaration.
    @Test(arguments: StoreKind.allCases)
    func anEndToEndTableIsStoredAsItsServerView(_ kind: StoreKind) async throws {
        let view = SyncSchema.testUsersWithSealedDiaries.serverView
        try await TestSyncStore.with(kind, schema: view) { store, sandbox in
            let rows = MemoryRows(schema: view)
            let alice = SyncUser(name: "alice", roles: []), diary = UUID()
            let sealed = Data((0..<150).map { UInt8($0) }).base64EncodedString()
            let stored = try await store.apply(SyncWrite([
                try rows.upsert("diary", diary, [SyncTable.sealedColumn: .text(sealed)]),
            ], by: alice), at: Date())
            #expect(stored?.map(\.status) == [.applied])
            let read = try await store.snapshot(after: nil, limit: 10, tables: SyncTableFilter(["diary"]), for: alice)
            #expect(read.rows.map(\.key) == [SyncRowKey(table: "diary", id: diary)])
            guard case .live(let values, _) = read.rows.first?.state else { throw TestFailure("no live diary: \(read.rows)") }
            #expect(values == [SyncTable.sealedColumn: .text(sealed)])
            #expect(throws: (any Error).self) {
                try MemoryRows(schema: view).upsert("diary", UUID(), ["text": .text("In the clear")])
            }
            // The declaration kept reads back: another store opens on it.
            let again = try await TestSyncStore.open(sandbox, schema: view)
            try await again.close()
        }
    }

    @Test func aStoredValueOfAnotherTypeThanItsColumnsIsRefusedWhenRead() async throws {
        try await TestSyncStore.with(.embedded) { store, sandbox in
            try await notebookWithANoteAndAComment(store)
            let pool = try sandbox.embeddedPool()
            try await pool.write { db in
                try db.execute(sql: #"UPDATE sync_server_row SET row_values = '{"name":5}' WHERE table_name = 'notebook'"#)
            }
            try pool.close()
            await #expect(throws: SyncChangeError.self) { try await store.row("notebook", work) }
        }
    }
}
