import NIOCore
import NIOPosix
import Synchronization

/// Wakes the requests that wait for the change counter of a store to move
/// (`GET /v1/sync/rows?since=…&wait=…`): the latest version the store knows
/// of, and the waiters, each a suspended continuation with a timer on an
/// event loop. No thread, polling loop or database connection per waiter:
/// 10,000 idle long-polls cost a few hundred bytes each.
///
/// The store calls ``publish(_:scope:)`` after each commit it learns of
/// (its own, or another instance's through PostgreSQL `NOTIFY`), and
/// ``wakeAll()`` when it may have missed some. A waiter of a user (an
/// ``StoreChangeInterest``) is woken only by the commits whose scope
/// concerns them, or whose scope is unknown: one user's change wakes the
/// long-polls of the users who may see it, not 10,000.
///
/// ```swift
/// let notifier = StoreChangeNotifier(latestVersion: 7)
/// let outcome = await notifier.wait(after: 7, until: .now() + .seconds(30))
/// ```
public final class StoreChangeNotifier: Sendable {
    private struct Waiter {
        var after: Int64
        var interest: StoreChangeInterest?
        var continuation: CheckedContinuation<StoreChangeWait, Never>
        var timer: Scheduled<Void>?
    }

    /// A commit published: the versions it covers (after `since`, up to
    /// `version`), and its scope.
    private struct Published {
        var since: Int64
        var version: Int64
        var scope: StoreChangeScope?
    }

    private struct State {
        var latestVersion: Int64
        var waiters: [UInt64: Waiter] = [:]
        var nextID: UInt64 = 0
        var isReleased = false
        /// The last commits published, oldest first: a waiter that comes
        /// after some waits only if none concerns it.
        var recent: [Published] = []

        /// Whether a commit after `version` may concern a waiter of
        /// `interest` (any commit, without one): unknown, and so yes, when
        /// the commits kept do not reach back to it.
        func hasChange(after version: Int64, for interest: StoreChangeInterest?) -> Bool {
            guard latestVersion > version else { return false }
            guard let interest else { return true }
            let later = recent.filter { $0.version > version }
            guard let oldest = later.first, oldest.since <= version else { return true }
            return later.contains { $0.scope?.concerns(interest) ?? true }
        }
    }

    /// The commits kept for waiters that come after them.
    static let recentKept = 256

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
    /// the latest version known is already past `version`. With an
    /// `interest`, only a commit that concerns it (or of unknown scope)
    /// counts, before the wait as during it.
    ///
    /// The deadline's timer runs on `timers`, whose clock it is read on:
    /// tests give a loop whose time moves only when they advance it.
    public func wait(
        after version: Int64, until deadline: NIODeadline, timers: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton,
        for interest: StoreChangeInterest? = nil
    ) async -> StoreChangeWait {
        let id = state.withLock { state -> UInt64 in
            defer { state.nextID += 1 }
            return state.nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let immediate: StoreChangeWait? = state.withLock { state in
                    if state.isReleased || Task.isCancelled { return .released }
                    if state.hasChange(after: version, for: interest) { return .changed }
                    state.waiters[id] = Waiter(after: version, interest: interest, continuation: continuation)
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
    /// wait after an older one and whom `scope` concerns (every one when
    /// it is unknown).
    public func publish(_ version: Int64, scope: StoreChangeScope? = nil) {
        let woken = state.withLock { state -> [Waiter] in
            guard version > state.latestVersion else { return [] }
            state.recent.append(Published(since: state.latestVersion, version: version, scope: scope))
            if state.recent.count > Self.recentKept { state.recent.removeFirst(state.recent.count - Self.recentKept) }
            state.latestVersion = version
            let woken = state.waiters.filter { _, waiter in
                waiter.after < version && (waiter.interest.map { scope?.concerns($0) ?? true } ?? true)
            }
            for id in woken.keys { state.waiters[id] = nil }
            return Array(woken.values)
        }
        finish(woken, with: .changed)
    }

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
