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
