import NIOCore
import NIOPosix
import Synchronization

/// Wakes the requests that wait for the change counter of a store to move
/// (`GET /v1/sync/rows?since=…&wait=…`): the latest version the store knows
/// of, and the waiters, each a suspended continuation with a timer on an
/// event loop. No thread, polling loop or database connection per waiter:
/// 10,000 idle long-polls cost a few hundred bytes each.
///
/// The store calls ``publish(_:)`` after each commit it learns of (its
/// own, or another instance's through PostgreSQL `NOTIFY`), and
/// ``wakeAll()`` when it may have missed some.
///
/// ```swift
/// let notifier = StoreChangeNotifier(latestVersion: 7)
/// let outcome = await notifier.wait(after: 7, until: .now() + .seconds(30))
/// ```
public final class StoreChangeNotifier: Sendable {
    private struct Waiter {
        var after: Int64
        var continuation: CheckedContinuation<StoreChangeWait, Never>
        var timer: Scheduled<Void>?
    }

    private struct State {
        var latestVersion: Int64
        var waiters: [UInt64: Waiter] = [:]
        var nextID: UInt64 = 0
        var isReleased = false
    }

    private let state: Mutex<State>

    /// `latestVersion`: the counter when the store opened.
    public init(latestVersion: Int64) {
        state = Mutex(State(latestVersion: latestVersion))
    }

    /// The latest version published.
    public var latestVersion: Int64 { state.withLock { $0.latestVersion } }

    /// How many requests wait now.
    public var waiterCount: Int { state.withLock { $0.waiters.count } }

    /// Waits until the counter is past `version`, `deadline` passes, the
    /// notifier is released or the task is cancelled. Returns at once when
    /// the latest version known is already past `version`.
    ///
    /// The deadline's timer runs on `timers`, whose clock it is read on:
    /// tests give a loop whose time moves only when they advance it.
    public func wait(
        after version: Int64, until deadline: NIODeadline, timers: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) async -> StoreChangeWait {
        let id = state.withLock { state -> UInt64 in
            defer { state.nextID += 1 }
            return state.nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let immediate: StoreChangeWait? = state.withLock { state in
                    if state.isReleased || Task.isCancelled { return .released }
                    if state.latestVersion > version { return .changed }
                    state.waiters[id] = Waiter(after: version, continuation: continuation)
                    return nil
                }
                if let immediate {
                    continuation.resume(returning: immediate)
                    return
                }
                let timer = timers.any().scheduleTask(deadline: deadline) { [weak self] () -> Void in
                    self?.resume(id, with: .timedOut)
                }
                // The waiter may have been woken meanwhile: then its timer
                // is cancelled here rather than kept.
                let isWaiting = state.withLock { state -> Bool in
                    guard state.waiters[id] != nil else { return false }
                    state.waiters[id]?.timer = timer
                    return true
                }
                if !isWaiting { timer.cancel() }
            }
        } onCancel: {
            resume(id, with: .released)
        }
    }

    /// A commit moved the counter to `version`: wakes the waiters that
    /// wait after an older one.
    public func publish(_ version: Int64) {
        let woken = state.withLock { state -> [Waiter] in
            guard version > state.latestVersion else { return [] }
            state.latestVersion = version
            let woken = state.waiters.filter { $0.value.after < version }
            for id in woken.keys { state.waiters[id] = nil }
            return Array(woken.values)
        }
        finish(woken, with: .changed)
    }

    /// Wakes every waiter to read again: changes may have been missed
    /// (the store's listening connection dropped).
    public func wakeAll() {
        let woken = state.withLock { state -> [Waiter] in
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        finish(woken, with: .changed)
    }

    /// Releases every waiter, now and from now on: the server is shutting
    /// down, and answers its long-polls at once. Returns how many waited.
    @discardableResult
    public func releaseAll() -> Int {
        let woken = state.withLock { state -> [Waiter] in
            state.isReleased = true
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        finish(woken, with: .released)
        return woken.count
    }

    private func resume(_ id: UInt64, with outcome: StoreChangeWait) {
        guard let waiter = state.withLock({ $0.waiters.removeValue(forKey: id) }) else { return }
        finish([waiter], with: outcome)
    }

    /// Resumes the waiters, then cancels their timers: the answers of a
    /// commit that wakes 10,000 long-polls start before the 10,000
    /// cancellations (each removes its timer from its loop's queue).
    private func finish(_ waiters: [Waiter], with outcome: StoreChangeWait) {
        for waiter in waiters { waiter.continuation.resume(returning: outcome) }
        for waiter in waiters { waiter.timer?.cancel() }
    }
}
