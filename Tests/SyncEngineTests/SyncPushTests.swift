import CipherDB
import Foundation
import SyncEngine
import SyncSchema
import Testing

/// Batches of the outbox: each change's values read from its row when it
/// is first sent and frozen with it, so that a retry is the same request.
@Suite struct SyncPushTests {
    let notes: NotesDatabase
    let sentAt = Date(timeIntervalSince1970: 1_800_000_000)

    init() throws {
        notes = try NotesDatabase()
    }

    func nextBatch(maximumChanges: Int = 500) throws -> [SyncPushChange] {
        try notes.dbPool.write { db in try db.nextSyncPushBatch(for: notes.schema, maximumChanges: maximumChanges, at: sentAt) }
    }

    /// What the server answered: the entries sent leave the outbox.
    func acknowledgeSent() throws {
        try notes.dbPool.write { db in try db.execute(sql: "DELETE FROM sync_outbox WHERE sent_at IS NOT NULL") }
    }

    func execute(_ sql: String, _ arguments: StatementArguments = StatementArguments()) throws {
        try notes.dbPool.write { db in try db.execute(sql: sql, arguments: arguments) }
    }

    @Test func aFirstBatchFreezesEachRowsValuesAndMarksItsEntrySent() throws {
        let note = UUID(), notebook = UUID()
        try notes.insertNote(note, notebook: notebook, title: "Groceries")
        let batch = try nextBatch()
        #expect(batch.map(\.operation) == [.upsert, .upsert])
        #expect(batch[0].row.table == "notebook" && batch[0].row.id == notebook)
        #expect(batch[0].row.values == ["name": .text("Work"), "colour": .null])
        #expect(batch[1].row.values == ["notebook": .uuid(notebook), "title": .text("Groceries"), "body": .null])
        #expect(try notes.entries().allSatisfy { $0.sentAt == sentAt })
        #expect(Set(batch.map(\.mutationID)) == Set(try notes.entries().map(\.mutationID)))
    }

    @Test func aRetryCarriesTheValuesFirstSentWhateverTheRowBecameSince() throws {
        let note = UUID()
        try notes.insertNote(note, notebook: UUID(), title: "Groceries")
        let first = try nextBatch()
        try execute("UPDATE note SET title = 'Shopping', body = 'milk' WHERE id = ?", [note.uuidString])
        // The edit is a change of its own, which waits for the answer to
        // the one sent: one change per row in a batch.
        #expect(try nextBatch() == first)
        try acknowledgeSent()
        let next = try nextBatch()
        #expect(next.count == 1)
        #expect(next.first?.row.values == ["title": .text("Shopping"), "body": .text("milk")])
        #expect(next.first.map { change in first.allSatisfy { $0.mutationID != change.mutationID } } == true)
    }

    @Test func aTableMergedByColumnSendsTheColumnsTouchedAndAServerWinsTableTheWholeRow() throws {
        let note = UUID(), notebook = UUID()
        try notes.insertNote(note, notebook: notebook, title: "Groceries")
        _ = try nextBatch()
        try acknowledgeSent()
        try execute("UPDATE note SET body = 'eggs'")
        try execute("UPDATE notebook SET colour = 'red'")
        let batch = try nextBatch()
        #expect(batch.map(\.row.table) == ["note", "notebook"])
        #expect(batch[0].row.values == ["body": .text("eggs")])
        #expect(batch[1].row.values == ["name": .text("Work"), "colour": .text("red")])
    }

    @Test func aDeleteIsSentWithoutValuesAndWithItsVersion() throws {
        let note = UUID()
        try notes.insertNote(note, notebook: UUID(), title: "Gone")
        _ = try nextBatch()
        try acknowledgeSent()
        try notes.setServerVersion(12, of: "note", note)
        try execute("DELETE FROM note")
        let batch = try nextBatch()
        #expect(batch.count == 1)
        #expect(batch.first?.operation == .delete)
        #expect(batch.first?.row.values.isEmpty == true)
        #expect(batch.first?.baseVersion == 12)
    }

    @Test func aBatchHoldsAtMostItsMaximumAndTheNextOneGoesOn() throws {
        for index in 0..<3 { try notes.insertNote(UUID(), notebook: UUID(), title: "Note \(index)") }
        let first = try nextBatch(maximumChanges: 4)
        #expect(first.count == 4)
        try acknowledgeSent()
        let rest = try nextBatch(maximumChanges: 4)
        #expect(rest.count == 2)
        #expect(rest.map(\.entry).min()! > first.map(\.entry).max()!)
    }

    /// A row that the declaration refuses (written by SQL, past the app's
    /// checks) stops the batch, named by its table and id with the
    /// column's sentence, and nothing is marked sent: the outbox is as it
    /// was.
    @Test func aRowTheDeclarationRefusesStopsTheBatchAndNothingIsMarkedSent() throws {
        try notes.insertNote(UUID(), notebook: UUID(), title: "Fine")
        let long = UUID()
        try notes.insertNote(long, notebook: UUID(), title: String(repeating: "t", count: 201))
        let error = #expect(throws: SyncEngineError.self) { try nextBatch() }
        guard case .rowBreaksDeclaration(let table, let id, .invalidValue(_, let valueError)) = error else {
            Issue.record("not an invalid value: \(String(describing: error))")
            return
        }
        #expect(table == "note" && id == long && valueError.column == "title" && valueError.problem == .tooLong)
        #expect(try notes.entries().allSatisfy { $0.sentAt == nil })
    }

    @Test func aBatchOutsideATransactionIsRefused() throws {
        let error = notes.dbPool.writeWithoutTransaction { db in
            #expect(throws: SyncEngineError.self) { try db.nextSyncPushBatch(for: notes.schema) }
        }
        #expect(error == SyncEngineError.notInTransaction("taking a batch of the outbox"))
    }
}
