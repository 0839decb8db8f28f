import Synchronization

/// The writes that stage a pull's pages, one after the other, each started
/// without waiting for it: while a page is written, the client fetches,
/// decodes and opens the next one. At most one write is under way, so
/// that a pull holds two pages at most, whatever its length.
///
/// ```swift
/// try await writes.start { try await writer.write { db in … } }   // page 1
/// try await writes.start { … }   // page 2, once page 1 is written
/// try await writes.finish()      // before the merge; rethrows a write's error
/// ```
///
/// Its caller starts one write at a time (``SyncStaging`` hands pages in
/// order, each once the previous call returned).
final class SyncStagingWrites: Sendable {
    private let last = Mutex<Task<Void, any Error>?>(nil)

    /// Waits for the write under way, rethrowing its error (then `write`
    /// does not start), and starts `write`.
    func start(_ write: @escaping @Sendable () async throws -> Void) async throws {
        try await finish()
        let started = Task(operation: write)
        last.withLock { $0 = started }
    }

    /// Waits for the write under way, if any, rethrowing its error.
    func finish() async throws {
        try await last.withLock { $0.take() }?.value
    }
}
