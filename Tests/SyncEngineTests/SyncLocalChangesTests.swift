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

    /// A commit of the writer itself is told through the commit, with no
    /// poll: the file is not read again before the hour is out. The first
    /// write is a sent change (a push under way), which is no change to
    /// push.
    @Test(.hangGuard) func aCommitOfTheAppsWriterIsToldThroughTheCommitItself() async throws {
        try notes.insertNote(UUID(), notebook: UUID(), title: "Sent")
        try notes.markSent()
        let localChanges = try SyncLocalChanges(databaseOf: notes.dbPool, pollingEvery: .seconds(3600))
        let waiting = Task { try await localChanges.next() }
        try notes.insertNote(UUID(), notebook: UUID(), title: "Groceries")
        try await waiting.value
        try localChanges.close()
    }

    /// Another process's commit, which no observer of this process sees,
    /// is told through the file's `data_version`.
    @Test(.hangGuard) func aCommitOfAnotherConnectionIsToldThroughTheFile() async throws {
        let localChanges = try SyncLocalChanges(databaseOf: notes.dbPool, pollingEvery: .milliseconds(5))
        let waiting = Task { try await localChanges.next() }
        var configuration = Configuration()
        configuration.prepareDatabase { db in try db.useRawKey(NotesDatabase.key) }
        let otherProcess = try DatabaseQueue(path: notes.path, configuration: configuration)
        try await otherProcess.write { db in
            try db.execute(sql: "INSERT INTO notebook (id, name) VALUES (?, 'Home')", arguments: [UUID().uuidString])
        }
        try await waiting.value
        try otherProcess.close()
        try localChanges.close()
    }

    @Test func cancellingTheWaitEndsIt() async throws {
        let localChanges = try SyncLocalChanges(databaseOf: notes.dbPool, pollingEvery: .milliseconds(5))
        let waiting = Task { try await localChanges.next() }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        try localChanges.close()
    }
}
