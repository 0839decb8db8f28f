/// When a sync began, on its client's clock (``SyncClient/clock``): how
/// long it has lasted, for its report, and the wait until its deadline.
/// `package`: `pushThenPull` starts one for its push and its pull.
package struct SyncStopwatch: Sendable {
    private let elapsed: @Sendable () -> Duration
    private let sleepUntilElapsed: @Sendable (Duration) async throws -> Void

    /// Starts now on `clock`.
    package init(_ clock: any Clock<Duration>) {
        self.init(on: clock)
    }

    private init<C: Clock<Duration>>(on clock: C) {
        let start = clock.now
        elapsed = { start.duration(to: clock.now) }
        sleepUntilElapsed = { duration in try await clock.sleep(until: start.advanced(by: duration), tolerance: nil) }
    }

    /// The time since the start, in seconds.
    package var elapsedSeconds: Double {
        let duration = elapsed()
        return Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    /// Sleeps until `duration` has passed since the start.
    package func sleep(untilElapsed duration: Duration) async throws {
        try await sleepUntilElapsed(duration)
    }
}
