/// Waits until `condition` holds, checking it every 10 ms; throws a
/// ``TestFailure`` that names `what` once `timeout` has passed without it.
/// The timeout is a hang guard, generous enough for a loaded machine: a
/// test waits on what it needs, never for a fixed time.
///
/// ```swift
/// try await waitUntil("the server received the request") { server.requests.count == 1 }
/// ```
public func waitUntil(_ what: String, timeout: Duration = .seconds(60),
                      _ condition: @Sendable () async throws -> Bool) async throws {
    let clock = ContinuousClock()
    let giveUp = clock.now + timeout
    while try await !condition() {
        guard clock.now < giveUp else {
            throw TestFailure("waited \(timeout) until \(what), in vain")
        }
        try await Task.sleep(for: .milliseconds(10))
    }
}
