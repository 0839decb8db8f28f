import Foundation

/// The loop of `players sync --watch` and `notes sync --watch`: pushes the
/// queued local changes, then long-polls the delta
/// (``SyncClient/waitSeconds``, which a local change ends at once:
/// ``SyncClient/localChangeToPush``), merges each answer in its own
/// transaction, and again, until its task is cancelled
/// (Ctrl-C, SIGTERM). A failure is reported in one line and retried after
/// a back-off that doubles from 1 s up to ``maximumBackOff`` (or as long
/// as a busy server's `Retry-After` asks), except one
/// that no retry mends (``SyncError/otherServer``), which ends it; a sleep of
/// the computer (the wall clock jumps past the monotonic one) abandons
/// the request under way, whose connection is likely dead, and resumes at
/// once.
///
/// ```swift
/// client.waitSeconds = 50
/// let watcher = SyncWatcher(syncOnce: { try await client.sync() }, onSync: { report in print(report) },
///                           onNotice: { line in print(line) }, describe: { error in "\(error)" })
/// let failure = await watcher.run()   // nil once cancelled
/// ```
public struct SyncWatcher<Report: Sendable>: Sendable {
    /// One push and one long-poll, merged.
    let syncOnce: @Sendable () async throws -> Report
    /// Called with the report of each sync that succeeded.
    let onSync: @Sendable (Report) -> Void
    /// Called with one line for each failure and each sleep noticed.
    let onNotice: @Sendable (String) -> Void
    /// How one failure is told, secrets removed.
    let describe: @Sendable (any Error) -> String
    public var maximumBackOff: Duration = .seconds(30)
    /// The longest wait a busy server's `Retry-After` gets; a longer one
    /// is cut to it.
    public var maximumRetryAfter: Duration = .seconds(600)
    /// How the back-off waits: `Task.sleep`, or in a test one that records
    /// the waits and returns at once.
    public var sleep: @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    /// A wall-clock jump longer than this over the monotonic clock is a
    /// sleep of the computer.
    public var sleepThreshold: TimeInterval = 10

    public init(syncOnce: @escaping @Sendable () async throws -> Report, onSync: @escaping @Sendable (Report) -> Void,
                onNotice: @escaping @Sendable (String) -> Void, describe: @escaping @Sendable (any Error) -> String) {
        self.syncOnce = syncOnce
        self.onSync = onSync
        self.onNotice = onNotice
        self.describe = describe
    }

    /// The computer slept while a request was under way.
    private struct SleepNoticed: Error {}

    /// Runs until the task is cancelled, or returns the failure that no
    /// retry mends.
    public func run() async -> (any Error)? {
        var failures = 0
        while !Task.isCancelled {
            do {
                let report = try await untilSleepNoticed(syncOnce)
                failures = 0
                onSync(report)
            } catch is SleepNoticed {
                failures = 0
                onNotice("the computer slept; resuming now.")
            } catch {
                if Task.isCancelled { return nil }
                if error as? SyncError == .otherServer { return error }
                failures += 1
                let backOff = backOff(after: failures, error)
                onNotice("\(describe(error)); retrying in \(backOff.components.seconds) s.")
                do {
                    _ = try await untilSleepNoticed { [sleep] in
                        try await sleep(backOff)
                        return Report?.none
                    }
                } catch is SleepNoticed {
                    failures = 0
                    onNotice("the computer slept; resuming now.")
                } catch {
                    return nil // cancelled
                }
            }
        }
        return nil
    }

    /// The wait before the next try after `failures` in a row: 1 s,
    /// doubled each time up to ``maximumBackOff``; at least what a busy
    /// server asked (``SyncError/retryAfter``), up to ``maximumRetryAfter``.
    func backOff(after failures: Int, _ error: any Error) -> Duration {
        let doubled = min(.seconds(1) * (1 << min(failures - 1, 16)), maximumBackOff)
        guard let retryAfter = (error as? SyncError)?.retryAfter else { return doubled }
        return max(doubled, min(.seconds(retryAfter.rounded(.up)), maximumRetryAfter))
    }

    /// Runs `operation`, or throws ``SleepNoticed`` (cancelling it) when the
    /// wall clock moves more than ``sleepThreshold`` past the monotonic
    /// clock, which stops while the computer sleeps.
    private func untilSleepNoticed<T: Sendable>(_ operation: @escaping @Sendable () async throws -> T) async throws -> T {
        let threshold = sleepThreshold
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await operation() }
            group.addTask {
                let clock = SuspendingClock()
                var (wall, monotonic) = (Date(), clock.now)
                while true {
                    try await Task.sleep(for: .seconds(1))
                    let (newWall, newMonotonic) = (Date(), clock.now)
                    let elapsed = monotonic.duration(to: newMonotonic)
                    let monotonicSeconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
                    if newWall.timeIntervalSince(wall) - monotonicSeconds > threshold { return nil }
                    (wall, monotonic) = (newWall, newMonotonic)
                }
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let result = first else { throw SleepNoticed() }
            return result
        }
    }
}
