/// Suspends until the task is cancelled, then throws `CancellationError`:
/// what never comes (a server's answer, a local change), with no clock
/// and no sleep.
///
/// ```swift
/// client.localChangeToPush = { try await untilCancelled() }   // no local change, ever
/// ```
public func untilCancelled() async throws {
    let (stream, continuation) = AsyncStream<Never>.makeStream()
    await withTaskCancellationHandler {
        for await _ in stream {}
    } onCancel: {
        continuation.finish()
    }
    throw CancellationError()
}
