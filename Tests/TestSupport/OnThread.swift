import Foundation

/// Runs blocking work (a subprocess, sockets, waits) on a thread of its
/// own, so that it holds none of Swift's few cooperative threads, which
/// the other tests running at the same time need (a server in the
/// test's own process among them), nor one of Dispatch's global threads:
/// on a machine of two cores, a few waits that last (a subprocess whose
/// answer a test holds) would starve the libcurl transfers of the other
/// tests, which run there.
public func onThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
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
