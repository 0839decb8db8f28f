import Synchronization

/// A wake-up that tasks wait for and others give: ``signal()`` ends every
/// wait under way, or, when none waits, the next one (signals given
/// meanwhile count as one). The replicator's loop waits on pulses for a
/// local commit and for `syncNow()`.
///
/// ```swift
/// let commits = SyncPulse()
/// Task { commits.signal() }
/// await commits.wait(upTo: .milliseconds(100))   // the signal, or 100 ms
/// ```
///
/// `Sendable` through its mutex.
package final class SyncPulse: Sendable {
    private struct State {
        var pending = false
        var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
        var lastWaiter: UInt64 = 0
    }

    private let state = Mutex(State())

    package init() {}

    /// Ends the waits under way, or the next one if none waits.
    package func signal() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard !state.waiters.isEmpty else {
                state.pending = true
                return []
            }
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Forgets a signal given while none waited.
    package func clear() {
        state.withLock { $0.pending = false }
    }

    /// Returns at the next signal (at once when one is pending), or when
    /// the task is cancelled.
    package func wait() async {
        let id = state.withLock { state in
            state.lastWaiter += 1
            return state.lastWaiter
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resumesNow = state.withLock { state in
                    if state.pending {
                        state.pending = false
                        return true
                    }
                    // Cancelled before the continuation was kept: the
                    // handler found nothing to resume.
                    if Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if resumesNow { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
        }
    }

    /// Returns at the next signal, after `timeout`, or when the task is
    /// cancelled, whichever comes first.
    package func wait(upTo timeout: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.wait() }
            group.addTask { try? await Task.sleep(for: timeout) }
            await group.next()
            group.cancelAll()
        }
    }
}
