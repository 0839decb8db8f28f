import Foundation

/// Waits until `condition` holds: a wait on a condition, never a sleep that
/// hopes something happened. `timeout` is a hang guard, generous enough
/// never to end a wait on a busy machine (two minutes: a whole suite on two
/// loaded cores can keep a task from running for a minute); past it the
/// wait throws a ``TestFailure`` that says what was awaited.
///
/// ```swift
/// try await waitUntil("the long-poll is waiting") { store.changes.waiterCount == 1 }
/// ```
public func waitUntil(_ what: @autoclosure () -> String, timeout: Duration = .seconds(120),
                      _ condition: () throws -> Bool) async throws {
    let deadline = ContinuousClock.now + timeout
    while try !condition() {
        guard ContinuousClock.now < deadline else { throw TestFailure("gave up after \(timeout) waiting: \(what())") }
        try await Task.sleep(for: .milliseconds(5))
    }
}

/// ``waitUntil(_:timeout:_:)`` for a thread that may block (a Dispatch
/// thread, a database access).
public func waitUntilBlocking(_ what: @autoclosure () -> String, timeout: Duration = .seconds(120),
                              _ condition: () throws -> Bool) throws {
    let deadline = ContinuousClock.now + timeout
    while try !condition() {
        guard ContinuousClock.now < deadline else { throw TestFailure("gave up after \(timeout) waiting: \(what())") }
        usleep(5_000)
    }
}
