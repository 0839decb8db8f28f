import Synchronization

/// The work that stages a pull's pages, one page after the other in
/// order, without the client waiting for it: while a page is written,
/// the next one is prepared (its sealed rows opened) and the one after is
/// fetched and decoded. At most two pages are under way, so that a pull
/// holds three pages at most, whatever its length.
///
/// ```swift
/// try await writes.start({ open(page1) }, then: { opened in try await writer.write { db in … } })
/// try await writes.start({ open(page2) }, then: { … })   // opens while page 1 is written
/// try await writes.finish()      // before the merge; rethrows the first failure
/// ```
///
/// Its caller starts one page at a time (``SyncStaging`` hands pages in
/// order, each once the previous call returned).
final class SyncStagingWrites: Sendable {
    /// The page before the last, and the last: each one's task ends once
    /// its write is done, and fails when it or an earlier page failed.
    private let pending = Mutex<(earlier: Task<Void, any Error>?, last: Task<Void, any Error>?)>((nil, nil))

    /// Waits for the page before the previous one, rethrowing its failure
    /// (then nothing starts); then starts `prepare` at once and `write`
    /// with what it made once the previous page is written.
    func start<Prepared: Sendable>(_ prepare: @escaping @Sendable () -> Prepared,
                                   then write: @escaping @Sendable (Prepared) async throws -> Void) async throws {
        try await pending.withLock { $0.earlier.take() }?.value
        let previous = pending.withLock { $0.last }
        let started = Task {
            let prepared = prepare()
            try await previous?.value
            try await write(prepared)
        }
        pending.withLock { $0 = (previous, started) }
    }

    /// Waits until every page started is written, rethrowing the first
    /// failure.
    func finish() async throws {
        // The last page's task waits for every earlier one.
        let last = pending.withLock { state in
            defer { state = (nil, nil) }
            return state.last
        }
        try await last?.value
    }
}
