import Dispatch
import Foundation
import Synchronization

/// Runs an operation that SIGINT (Ctrl-C) and SIGTERM cancel instead of
/// killing the process: the transfer under way is abandoned, a merge under
/// way finishes or rolls back whole, and the sync's staging is
/// emptied, as after any failure. `players sync`, `notes sync` and their
/// `--watch` run this way.
///
/// ```swift
/// let (result, signal) = await InterruptibleOperation.run { try await client.pushThenPull() }
/// ```
public enum InterruptibleOperation {
    /// The operation's result, and the signal received while it ran, if
    /// any (the operation may have ended before it could see it).
    public static func run<Value: Sendable>(
        _ operation: @escaping @Sendable () async throws -> Value
    ) async -> (result: Result<Value, any Error>, signal: Int32?) {
        let task = Task { try await operation() }
        let received = Mutex<Int32?>(nil)
        SignalRouter.shared.route { signal in
            received.withLock { $0 = $0 ?? signal }
            task.cancel()
        }
        let result = await task.result
        SignalRouter.shared.route(nil)
        return (result, received.withLock { $0 })
    }
}

/// SIGINT and SIGTERM, caught once for the whole process (libdispatch
/// installs its handler once per signal: a second `signal(SIG_IGN)` would
/// remove it), and passed to the operation under way; with none, the
/// process exits with 128 + the signal, as it would have been killed.
private final class SignalRouter: Sendable {
    static let shared = SignalRouter()

    private let handler = Handler()
    /// The signal sources, kept for the life of the process. Only read and
    /// written here, at creation: `DispatchSourceSignal` is thread-safe.
    private nonisolated(unsafe) let sources: [any DispatchSourceSignal]

    private init() {
        let handler = self.handler
        sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                guard let route = handler.route.withLock({ $0 }) else { exit(128 + number) }
                route(number)
            }
            source.resume()
            return source
        }
    }

    /// Sends the signals to `route`, or (nil) ends the process on them.
    func route(_ route: (@Sendable (Int32) -> Void)?) {
        handler.route.withLock { $0 = route }
    }

    /// Where the signal sources find the operation under way.
    private final class Handler: Sendable {
        let route = Mutex<(@Sendable (Int32) -> Void)?>(nil)
    }
}
