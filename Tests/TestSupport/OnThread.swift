import Foundation

/// Runs blocking work (a subprocess, sockets, waits) on a Dispatch
/// thread, so that it holds none of Swift's few cooperative threads,
/// which the other tests running at the same time need (a server in the
/// test's own process among them).
public func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
    }
}

/// Runs blocking work on a thread of its own, as one member of `group`:
/// for many calls that block at once (requests that wait for a lock),
/// more of them than Dispatch's global queue runs side by side.
public func onNewThread(in group: DispatchGroup, _ body: @escaping @Sendable () -> Void) {
    group.enter()
    Thread {
        body()
        group.leave()
    }.start()
}
