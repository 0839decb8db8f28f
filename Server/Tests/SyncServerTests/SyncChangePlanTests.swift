import Foundation
import SyncSchema
import ServerTestSupport
import SyncServer
import Testing

/// The rules of a pushed change, for any declared table
/// (``SyncChangePlan``), on rows in memory.
@Suite struct SyncChangePlanTests {
    let work = UUID(), home = UUID(), groceries = UUID()

    /// A notebook "Work" (version 1) with a note "Groceries" (version 2).
    func notebookWithANote() throws -> MemoryRows {
        var store = MemoryRows()
        _ = try store.apply([
            try store.upsert("notebook", work, ["name": .text("Work")]),
            try store.upsert("note", groceries, ["notebook": .uuid(work), "title": .text("Groceries"), "body": .text("Milk")]),
        ])
        return store
    }

    @Test func aNewRowTakesTheNextVersionForItselfAndEachColumn() throws {
        let store = try notebookWithANote()
        #expect(store.counter == 2)
        #expect(store.row("note", groceries) == SyncStoredRow(
            key: SyncRowKey(table: "note", id: groceries), version: 2,
            state: .live(values: ["notebook": .uuid(work), "title": .text("Groceries"), "body": .text("Milk")],
                         columnVersions: ["notebook": 2, "title": 2, "body": 2])))
    }

    @Test func aRetryGetsTheFirstAnswerAndChangesNothing() throws {
        var store = try notebookWithANote()
        let change = try store.upsert("notebook", work, ["name": .text("Office")], base: 1)
        let first = try store.apply(change)
        let counter = store.counter
        let again = try store.apply(change)
        #expect(first == SyncPushResult(mutationID: change.mutationID, status: .applied, version: 3))
        #expect(again == first)
        #expect(store.counter == counter)
    }

    @Test func aMutationIDAnsweredForAnotherRowRefusesTheBatch() throws {
        var store = try notebookWithANote()
        let mutationID = UUID()
        _ = try store.apply(try store.upsert("notebook", work, ["name": .text("Office")], base: 1, mutationID: mutationID))
        let other = try store.upsert("notebook", home, ["name": .text("Home")], mutationID: mutationID)
        #expect(throws: SyncChangeError.mutationIDReused(mutationID, answeredFor: SyncRowKey(table: "notebook", id: work))) {
            try store.apply(other)
        }
    }

    @Test func aMutationIDAnsweredForTheSameRowWithOtherValuesOrBaseRefusesTheBatch() throws {
        var store = try notebookWithANote()
        let mutationID = UUID()
        let first = try store.upsert("notebook", work, ["name": .text("Office")], base: 1, mutationID: mutationID)
        _ = try store.apply(first)
        let counter = store.counter
        for other in [try store.upsert("notebook", work, ["name": .text("Studio")], base: 1, mutationID: mutationID),
                      try store.upsert("notebook", work, ["name": .text("Office")], base: 3, mutationID: mutationID)] {
            #expect(throws: SyncChangeError.mutationIDReused(mutationID, answeredFor: SyncRowKey(table: "notebook", id: work))) {
                try store.apply(other)
            }
        }
        #expect(store.counter == counter)
        #expect(store.values("notebook", work) == ["name": .text("Office")])
        #expect(try store.apply(first) == SyncPushResult(mutationID: mutationID, status: .applied, version: 3))
    }

    @Test func anAnswerKeptBeforeFingerprintsBindsItsRowAndOperationOnly() throws {
        let change = try MemoryRows().upsert("notebook", work, ["name": .text("Office")], base: 1)
        let result = SyncPushResult(mutationID: change.mutationID, status: .applied, version: 3)
        let kept = SyncRecordedAnswer(key: SyncRowKey(table: "notebook", id: work), operation: .upsert, fingerprint: nil,
                                      result: result, answeredAt: Date())
        var retry = change
        retry.row = try MemoryRows().upsert("notebook", work, ["name": .text("Studio")], base: 1).row
        let plan = try SyncChangePlan([retry], schema: .testNotes, rows: [:], recorded: [change.mutationID: kept],
                                      counter: 3, date: Date())
        #expect(plan.results == [result])
        #expect(plan.rowsToSave.isEmpty)
    }

    @Test func aChangesFingerprintTellsEveryPartOfIt() throws {
        let rows = MemoryRows()
        let id = UUID(), mutationID = UUID()
        let base = try rows.upsert("note", id, ["title": .text("A"), "body": .null], base: 2, mutationID: mutationID)
        #expect(base.fingerprint == (try rows.upsert("note", id, ["body": .null, "title": .text("A")], base: 2, mutationID: UUID())).fingerprint)
        #expect(base.fingerprint.count == 32)
        let others = [
            try rows.upsert("note", id, ["title": .text("B"), "body": .null], base: 2),
            try rows.upsert("note", id, ["title": .text("A"), "body": .text("")], base: 2),
            try rows.upsert("note", id, ["title": .text("A")], base: 2),
            try rows.upsert("note", id, ["title": .text("A"), "body": .null], base: 3),
            try rows.upsert("note", id, ["title": .text("A"), "body": .null], base: nil),
            try rows.upsert("note", UUID(), ["title": .text("A"), "body": .null], base: 2),
            try rows.delete("note", id, base: 2),
        ]
        for other in others { #expect(other.fingerprint != base.fingerprint, "\(other)") }
    }

    @Test func aServerWinsChangeOnAnOlderVersionIsAConflictWithTheServersRow() throws {
        var store = try notebookWithANote()
        _ = try store.apply(try store.upsert("notebook", work, ["name": .text("Office")], base: 1))
        let stale = try store.upsert("notebook", work, ["name": .text("Job")], base: 1)
        let result = try store.apply(stale)
        #expect(result.status == .conflict)
        #expect(result.version == 3)
        #expect(result.serverRow?.values == ["name": .text("Office")])
        #expect(store.values("notebook", work) == ["name": .text("Office")])
    }

    @Test func editsOfDifferentColumnsOfARowMergedByColumnBothSurvive() throws {
        var store = try notebookWithANote()
        let title = try store.apply(try store.upsert("note", groceries, ["title": .text("Shopping")], base: 2))
        let body = try store.apply(try store.upsert("note", groceries, ["body": .text("Eggs")], base: 2))
        #expect(title.status == .applied && title.version == 3)
        #expect(body.status == .applied && body.version == 4)
        #expect(store.values("note", groceries) == ["notebook": .uuid(work), "title": .text("Shopping"), "body": .text("Eggs")])
        #expect(store.row("note", groceries)?.state == .live(
            values: ["notebook": .uuid(work), "title": .text("Shopping"), "body": .text("Eggs")],
            columnVersions: ["notebook": 2, "title": 3, "body": 4]))
    }

    @Test func anEditOfAColumnSomeoneElseChangedIsTheOnlyConflictAndTheOtherColumnsApply() throws {
        var store = try notebookWithANote()
        _ = try store.apply(try store.upsert("note", groceries, ["title": .text("Shopping")], base: 2))
        let both = try store.upsert("note", groceries, ["title": .text("Errands"), "body": .text("Eggs")], base: 2)
        let result = try store.apply(both)
        #expect(result.status == .conflict)
        #expect(result.version == 4)
        #expect(result.serverRow?.values == ["notebook": .uuid(work), "title": .text("Shopping"), "body": .text("Eggs")])
        #expect(store.values("note", groceries)?["body"] == .text("Eggs"))
    }

    @Test func theSameValueSetByTwoDevicesIsNoConflict() throws {
        var store = try notebookWithANote()
        _ = try store.apply(try store.upsert("note", groceries, ["title": .text("Shopping")], base: 2))
        let same = try store.apply(try store.upsert("note", groceries, ["title": .text("Shopping")], base: 2))
        #expect(same == SyncPushResult(mutationID: same.mutationID, status: .applied, version: 3))
        #expect(store.counter == 3)
    }

    @Test func columnsAChangeDoesNotCarryKeepTheirValues() throws {
        // A whole row from a client whose declaration has no `body`.
        var store = try notebookWithANote()
        let result = try store.apply(try store.upsert("note", groceries, ["notebook": .uuid(work), "title": .text("Shopping")], base: 2))
        #expect(result.status == .applied)
        #expect(store.values("note", groceries)?["body"] == .text("Milk"))
    }

    @Test func aDeleteCascadesToChildrenAndGrandchildrenAsTombstones() throws {
        var store = try notebookWithANote()
        let comment = UUID()
        _ = try store.apply(try store.upsert("comment", comment, ["note": .uuid(groceries), "text": .text("Buy oat milk")]))
        let result = try store.apply(try store.delete("notebook", work, base: 1))
        #expect(result == SyncPushResult(mutationID: result.mutationID, status: .applied, version: 4))
        #expect(store.row("notebook", work)?.state == .deleted(at: Date(timeIntervalSince1970: 1_000)))
        #expect(store.row("note", groceries)?.version == 5)
        #expect(store.row("note", groceries)?.isLive == false)
        #expect(store.row("comment", comment)?.version == 6)
        #expect(store.row("comment", comment)?.isLive == false)
        // The rows, then the children of the notebook, of its note, of
        // the note's comment (none).
        #expect(store.requests == [
            .rows([SyncRowKey(table: "notebook", id: work)]),
            .children(of: [SyncRowKey(table: "notebook", id: work)]),
            .children(of: [SyncRowKey(table: "note", id: groceries)]),
            .children(of: [SyncRowKey(table: "comment", id: comment)]),
        ])
    }

    @Test func aSetNullChildLosesItsReferenceWithANewVersion() throws {
        var store = try notebookWithANote()
        let pin = UUID()
        _ = try store.apply(try store.upsert("pin", pin, ["note": .uuid(groceries), "label": .text("Today")]))
        _ = try store.apply(try store.delete("note", groceries, base: 2))
        #expect(store.row("pin", pin)?.state == .live(values: ["note": .null, "label": .text("Today")],
                                                       columnVersions: ["note": 5, "label": 3]))
    }

    @Test func aRestrictChildMakesTheDeleteAConflictThatChangesNothing() throws {
        var store = try notebookWithANote()
        let share = UUID()
        _ = try store.apply(try store.upsert("share", share, ["notebook": .uuid(work)]))
        let before = store.rows
        let result = try store.apply(try store.delete("notebook", work, base: 1))
        #expect(result.status == .conflict)
        #expect(result.serverRow?.values == ["name": .text("Work")])
        #expect(store.rows == before)
    }

    @Test func aChildOfADeletedParentIsAConflictWithNoRow() throws {
        var store = try notebookWithANote()
        _ = try store.apply(try store.delete("notebook", work, base: 1))
        let orphan = UUID()
        let result = try store.apply(try store.upsert("note", orphan, ["notebook": .uuid(work), "title": .text("Late")]))
        #expect(result == SyncPushResult(mutationID: result.mutationID, status: .conflict, version: nil))
        #expect(store.row("note", orphan) == nil)
    }

    @Test func aChangeMadeOnTheDeleteBringsTheRowBack() throws {
        var store = try notebookWithANote()
        _ = try store.apply(try store.delete("notebook", work, base: 1))
        let tombstone = try #require(store.row("notebook", work)?.version)
        let stale = try store.apply(try store.upsert("notebook", work, ["name": .text("Office")], base: 1))
        #expect(stale == SyncPushResult(mutationID: stale.mutationID, status: .conflict, version: tombstone))
        let back = try store.apply(try store.upsert("notebook", work, ["name": .text("Office")], base: tombstone))
        #expect(back.status == .applied)
        #expect(store.values("notebook", work) == ["name": .text("Office")])
    }

    @Test func aRowCreatedWithoutARequiredColumnRefusesTheBatch() throws {
        var store = try notebookWithANote()
        let before = store.rows
        let changes = [
            try store.upsert("notebook", home, ["name": .text("Home")]),
            try store.upsert("note", UUID(), ["notebook": .uuid(work)]),
        ]
        #expect(throws: SyncChangeError.incompleteRow(.missingColumn(table: "note", column: "title"))) {
            try store.apply(changes)
        }
        #expect(store.rows == before)
    }

    @Test func theDeleteOfARowTheServerNeverHadIsApplied() throws {
        var store = try notebookWithANote()
        let result = try store.apply(try store.delete("notebook", home, base: nil))
        #expect(result == SyncPushResult(mutationID: result.mutationID, status: .applied, version: nil))
        #expect(store.counter == 2)
    }

    @Test func aParentAndItsChildInOneBatchApplyInOrder() throws {
        var store = MemoryRows()
        let results = try store.apply([
            try store.upsert("notebook", home, ["name": .text("Home")]),
            try store.upsert("note", groceries, ["notebook": .uuid(home), "title": .text("Groceries")]),
        ])
        #expect(results.map(\.status) == [.applied, .applied])
        #expect(store.row("note", groceries)?.isLive == true)
    }

    @Test func anUpsertThatChangesNothingWritesNothing() throws {
        var store = try notebookWithANote()
        let result = try store.apply(try store.upsert("notebook", work, ["name": .text("Work")], base: 1))
        #expect(result == SyncPushResult(mutationID: result.mutationID, status: .applied, version: 1))
        #expect(store.counter == 2)
    }

    @Test func aChangeOfATableTheServerDoesNotServeRefusesTheBatch() throws {
        var store = MemoryRows(schema: try SyncSchema(tables: [SyncSchema.testNotes.table("notebook")!]))
        let note = try MemoryRows().upsert("note", groceries, ["notebook": .uuid(work), "title": .text("Groceries")])
        #expect(throws: SyncChangeError.unknownTable("note")) { try store.apply(note) }
    }
}
