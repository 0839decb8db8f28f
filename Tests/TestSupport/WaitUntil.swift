import Foundation

/// How long a test waits for something that happens at once when the code
/// works: a hang guard, not a timing. Two minutes: the whole suite on two
/// loaded cores can keep a task from running for a minute. It never fails a
/// working test; it only turns a hang into a failure that names what did
/// not happen.
public let hangGuard: Duration = .seconds(120)

/// Waits until `condition` holds, checking it `every` 10 ms (or more, for
/// a condition that costs, such as a connection): a wait on a condition,
/// never a sleep that hopes something happened. Throws a ``TestFailure``
/// naming `what` (read when it fails) if it still does not after `timeout`
/// (a hang guard), or what `condition` throws (a process that exited, say).
///
/// ```swift
/// try await waitUntil("a long-poll waiting on the store") { store.changes.waiterCount == 1 }
/// ```
public func waitUntil(
    _ what: @autoclosure () -> String, timeout: Duration = hangGuard, every interval: Duration = .milliseconds(10),
    _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + timeout
    while try await !condition() {
        guard ContinuousClock.now < deadline else { throw TestFailure("waited \(timeout) (the hang guard) for \(what())") }
        try await Task.sleep(for: interval)
    }
}

/// ``waitUntil(_:timeout:every:_:)`` blocking the calling thread, for code
/// that runs on a thread of its own (``onThread(_:)``, a subprocess's
/// runner, a database access).
public func waitUntilBlocking(_ what: @autoclosure () -> String, timeout: Duration = hangGuard, _ condition: () throws -> Bool) throws {
    let deadline = ContinuousClock.now + timeout
    while try !condition() {
        guard ContinuousClock.now < deadline else { throw TestFailure("waited \(timeout) (the hang guard) for \(what())") }
        Thread.sleep(forTimeInterval: 0.01)
    }
}
