import Testing

extension Trait where Self == TimeLimitTrait {
    /// The time limit of a test that only its own limit would stop if it
    /// hung: five minutes, above any loaded machine's run of it, so that it
    /// fails a hang and never a slow machine (a limit of one minute did, on
    /// a machine with two CPU-bound processes beside the suite).
    ///
    /// ```swift
    /// @Test(.hangGuard) func aStalledServerTimesOut() async throws { … }
    /// ```
    public static var hangGuard: Self { .timeLimit(.minutes(5)) }
}
