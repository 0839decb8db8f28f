import CipherDB
import CipherSync
import Foundation
import Synchronization
import SyncEngine
import TestSupport
import Testing

/// SyncEngine.md's "Keeping a device in sync", as the page writes it: the
/// loop runs, retries a server that refuses connections, and stops when
/// its task is cancelled.
@Suite struct KeepingInSyncTests {
    @Test func theDocumentedLoopRetriesAndStopsWhenCancelled() async throws {
        let notes = try NotesDatabase()
        let (dbPool, schema) = (notes.dbPool, notes.schema)
        let url = URL(string: "http://127.0.0.1:1")!   // nothing listens there
        let store = SyncEngineStore(dbPool, schema: schema)
        var client = SyncClient(transport: CurlTransport(), endpoint: store.rowsEndpoint(baseURL: url), store: store)
        client.waitSeconds = 50
        let localChanges = try SyncLocalChanges(databaseOf: dbPool)
        client.localChangeToPush = { try await localChanges.next() }
        let notices = Notices()
        let watcher = SyncWatcher(syncOnce: { [client] in try await client.pushThenPull() },
                                  onSync: { _ in },
                                  onNotice: { line in notices.append(line) }, describe: { error in "\(error)" })
        let task = Task { await watcher.run() }
        try await waitUntil("a failure retried") { notices.lines.contains { $0.hasSuffix("retrying in 1 s.") } }
        task.cancel()
        #expect(await task.value == nil)
        try localChanges.close()
    }

    /// The watcher's notices, from its task.
    final class Notices: Sendable {
        private let recorded = Mutex<[String]>([])
        func append(_ line: String) { recorded.withLock { $0.append(line) } }
        var lines: [String] { recorded.withLock { $0 } }
    }
}
