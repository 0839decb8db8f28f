import Synchronization

/// Runs an operation on a pooled connection against its deadline, the
/// connection's close and the caller's cancellation, and returns as soon as
/// one of them ends, without waiting for the others.
///
/// A task group would wait for the operation, and an operation may wait
/// long, on PostgreSQL or on work of its own between statements: the
/// caller's wait ends at once, and its connection is closed, which ends
/// the statement the operation waits on (``PostgresConnection/close()``).
///
/// ```swift
/// switch await ConnectionRace.run(on: pooled, timeout: .seconds(60), { connection in try await work(connection) }) {
/// case .finished(let result): return try result.get()
/// case .timedOut, .connectionClosed, .cancelled: pooled.close()
/// }
/// ```
package final class ConnectionRace<Value: Sendable>: Sendable {
    package enum Outcome: Sendable {
        case finished(Result<Value, any Error>)
        case timedOut
        case connectionClosed
        case cancelled
    }

    private struct State {
        var continuation: CheckedContinuation<Outcome, Never>?
        /// The first outcome: it may come before the continuation exists
        /// (a connection already closed, a caller already cancelled).
        var outcome: Outcome?
        var deadline: Task<Void, Never>?
    }

    private let state = Mutex(State())

    private init() {}

    package static func run(
        on pooled: PooledConnection,
        timeout: Duration?,
        _ operation: @escaping @Sendable (PostgresConnection) async throws -> Value
    ) async -> Outcome {
        let race = ConnectionRace()
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                race.wait(with: continuation)
                pooled.watchClose { race.end(with: .connectionClosed) }
                Task {
                    do {
                        race.end(with: .finished(.success(try await operation(pooled.connection))))
                    } catch {
                        race.end(with: .finished(.failure(error)))
                    }
                }
                if let timeout {
                    race.setDeadline(Task {
                        // Cancelled: another outcome came first.
                        guard (try? await Task.sleep(for: timeout)) != nil else { return }
                        race.end(with: .timedOut)
                    })
                }
            }
        } onCancel: {
            race.end(with: .cancelled)
        }
        pooled.stopWatching()
        return outcome
    }

    private func wait(with continuation: CheckedContinuation<Outcome, Never>) {
        let outcome = state.withLock { state in
            if state.outcome == nil { state.continuation = continuation }
            return state.outcome
        }
        if let outcome { continuation.resume(returning: outcome) }
    }

    private func setDeadline(_ deadline: Task<Void, Never>) {
        let ended = state.withLock { state in
            state.deadline = deadline
            return state.outcome != nil
        }
        if ended { deadline.cancel() }
    }

    /// The first outcome resumes the caller and cancels the deadline;
    /// later ones are dropped.
    private func end(with outcome: Outcome) {
        let (continuation, deadline) = state.withLock { state -> (CheckedContinuation<Outcome, Never>?, Task<Void, Never>?) in
            guard state.outcome == nil else { return (nil, nil) }
            state.outcome = outcome
            defer { state.continuation = nil }
            return (state.continuation, state.deadline)
        }
        continuation?.resume(returning: outcome)
        deadline?.cancel()
    }
}
