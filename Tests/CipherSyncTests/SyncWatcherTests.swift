import CipherSync
import Foundation
import Synchronization
import Testing
import TestSupport

/// The back-off of `sync --watch`'s loop (``SyncWatcher``), its waits
/// recorded instead of slept.
@Suite struct SyncWatcherTests {
    /// A busy server's `Retry-After` is waited at least, up to the
    /// watcher's limit; a failure without one doubles the back-off.
    @Test func aBusyServersRetryAfterIsWaitedAtLeastUpToTheLimit() async throws {
        let calls = Mutex(0)
        let waits = Mutex<[Duration]>([])
        var watcher = SyncWatcher<Int>(
            syncOnce: {
                switch calls.withLock({ calls in calls += 1; return calls }) {
                case 1: throw SyncError.serverBusy.with(status: 503, detail: nil, retryAfter: 7)
                case 2: throw SyncError.serverError.with(status: 500, detail: nil)
                case 3: throw SyncError.serverBusy.with(status: 503, detail: nil, retryAfter: 3_600)
                case 4: throw SyncError.serverBusy.with(status: 503, detail: nil, retryAfter: 0.2)
                default:
                    try await untilCancelled()
                    return 0
                }
            },
            onSync: { _ in }, onNotice: { _ in }, describe: { error in "\(error)" })
        watcher.sleep = { duration in waits.withLock { $0.append(duration) } }
        let running = Task { await watcher.run() }
        try await waitUntil("the fifth try") { calls.withLock { $0 } == 5 }
        running.cancel()
        #expect(await running.value == nil)
        // 7 s asked; 2 s doubled; an hour cut to the 600 s limit; 0.2 s
        // below the doubled 8 s.
        #expect(waits.withLock { $0 } == [.seconds(7), .seconds(2), .seconds(600), .seconds(8)])
    }
}
