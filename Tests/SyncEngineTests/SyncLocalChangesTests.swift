import CipherDB
import Foundation
import SyncEngine
import TestSupport
import Testing

/// When a database holds a local change to push (``SyncLocalChanges``),
/// through a connection of its own, whoever wrote it.
@Suite struct SyncLocalChangesTests {
    let notes: NotesDatabase

    init() throws {
        notes = try NotesDatabase()
    }

    @Test func aChangeWaitingAlreadyIsToldAtOnce() async throws {
        try notes.insertNote(UUID(), notebook: UUID(), title: "Groceries")
        let localChanges = try SyncLocalChanges(databaseOf: notes.dbPool)
        try await localChanges.next()
        try localChanges.close()
    }

    /// A change committed by another connection while it waits: the
    /// first one's write is a sent change (a push under way), which is no
    /// change to push.
    @Test func aChangeCommittedByAnotherConnectionWhileItWaitsIsTold() async throws {
        try notes.insertNote(UUID(), notebook: UUID(), title: "Sent")
        try notes.markSent()
        let localChanges = try SyncLocalChanges(databaseOf: notes.dbPool)
        let waiting = Task { try await localChanges.next(pollingEvery: .milliseconds(5)) }
        try notes.insertNote(UUID(), notebook: UUID(), title: "Groceries")
        try await waiting.value
        try localChanges.close()
    }

    @Test func cancellingTheWaitEndsIt() async throws {
        let localChanges = try SyncLocalChanges(databaseOf: notes.dbPool)
        let waiting = Task { try await localChanges.next(pollingEvery: .milliseconds(5)) }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        try localChanges.close()
    }
}
