import Synchronization

/// A clock whose time moves only when the test advances it: the code under
/// test sleeps on it (a deadline, a retry's wait), and the test decides
/// when that time has passed, so that nothing depends on how fast the
/// machine is. Cancelling a sleeping task wakes it with
/// `CancellationError`, as `ContinuousClock` does.
///
/// ```swift
/// let clock = ManualClock()
/// client.clock = clock
/// async let report = client.sync()
/// try await clock.waitForSleepers(1)   // the deadline's sleep
/// clock.advance(by: .seconds(600))     // the deadline passes
/// ```
public final class ManualClock: Clock, Sendable {
    /// A point on the clock: the time advanced since it was made.
    public struct Instant: InstantProtocol, CustomStringConvertible {
        public var offset: Duration

        public init(offset: Duration) { self.offset = offset }

        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (left: Instant, right: Instant) -> Bool { left.offset < right.offset }
        public var description: String { "\(offset)" }
    }

    private struct Sleeper {
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var nextID = 0
        var sleepers: [Int: Sleeper] = [:]
    }

    private let state = Mutex(State())

    public init() {}

    public var now: Instant { state.withLock { $0.now } }
    public var minimumResolution: Duration { .zero }

    /// The deadlines of the tasks sleeping now, earliest first.
    public var sleeperDeadlines: [Instant] {
        state.withLock { $0.sleepers.values.map(\.deadline).sorted() }
    }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let early: Result<Void, any Error>? = state.withLock { state in
                    // Checked under the lock that onCancel takes: a
                    // cancellation is seen either here or there.
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if deadline <= state.now { return .success(()) }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return nil
                }
                if let early { continuation.resume(with: early) }
            }
        } onCancel: {
            let sleeper = state.withLock { $0.sleepers.removeValue(forKey: id) }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the time forward, and wakes the tasks whose deadline it
    /// reaches.
    public func advance(by duration: Duration) {
        let due = state.withLock { state in
            state.now = state.now.advanced(by: duration)
            let now = state.now
            let due = state.sleepers.filter { $0.value.deadline <= now }
            for id in due.keys { state.sleepers[id] = nil }
            return due.values.map(\.continuation)
        }
        for continuation in due { continuation.resume() }
    }

    /// Waits until `count` tasks sleep on the clock (a 60 s hang guard).
    public func waitForSleepers(_ count: Int) async throws {
        try await waitUntil("\(count) task\(count == 1 ? "" : "s") sleep on the manual clock") {
            state.withLock { $0.sleepers.count } == count
        }
    }
}
