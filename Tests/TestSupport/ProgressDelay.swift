/// The environment that sets how long `players` and `players-server` wait
/// before they show progress (`PLAYERS_PROGRESS_DELAY`, whole seconds).
/// A test sets 0, so that progress shows from the start and the test
/// depends on no duration.
///
/// ```swift
/// let process = try sandbox.makeProcess(["verify"], environment: progressDelay(seconds: 0))
/// ```
public func progressDelay(seconds: Int) -> [String: String] {
    ["PLAYERS_PROGRESS_DELAY": String(seconds)]
}
