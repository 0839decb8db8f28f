import Synchronization

/// Runs an operation against a deadline and returns as soon as either
/// ends, without waiting for the other: the loser is cancelled and left to
/// finish on its own. A task group would wait for its children, so an
/// operation that does not end on cancellation (a PostgreSQL pool waiting
/// for a connection to a database that refuses them) would outlast its
/// deadline without end.
///
/// ```swift
/// try await DeadlineRace.run(.seconds(10), PostgresStoreError("no answer within 10 s.")) {
///     try await client.query("SELECT 1")
/// }
/// ```
final class DeadlineRace<Value: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Value, any Error>?
        /// The outcome, once one is known: it may come before the
        /// continuation exists (a caller cancelled at once).
        var outcome: Result<Value, any Error>?
        var tasks: [Task<Void, Never>] = []
    }

    private let state = Mutex(State())

    private init() {}

    /// The operation's result, or `deadlineError` once `timeout` has passed
    /// first, or `CancellationError` when the caller is cancelled first.
    static func run(
        _ timeout: Duration,
        _ deadlineError: any Error,
        _ operation: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        let race = DeadlineRace()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                race.wait(with: continuation)
                race.add(Task {
                    do {
                        race.end(with: .success(try await operation()))
                    } catch {
                        race.end(with: .failure(error))
                    }
                })
                race.add(Task {
                    // Cancelled: the operation ended first.
                    guard (try? await Task.sleep(for: timeout)) != nil else { return }
                    race.end(with: .failure(deadlineError))
                })
            }
        } onCancel: {
            race.end(with: .failure(CancellationError()))
        }
    }

    private func wait(with continuation: CheckedContinuation<Value, any Error>) {
        let outcome = state.withLock { state in
            if state.outcome == nil { state.continuation = continuation }
            return state.outcome
        }
        if let outcome { continuation.resume(with: outcome) }
    }

    private func add(_ task: Task<Void, Never>) {
        let ended = state.withLock { state in
            state.tasks.append(task)
            return state.outcome != nil
        }
        if ended { task.cancel() }
    }

    /// The first outcome resumes the caller and cancels both tasks; later
    /// ones are dropped.
    private func end(with outcome: Result<Value, any Error>) {
        let (continuation, tasks) = state.withLock { state -> (CheckedContinuation<Value, any Error>?, [Task<Void, Never>]) in
            guard state.outcome == nil else { return (nil, []) }
            state.outcome = outcome
            defer { state.continuation = nil }
            return (state.continuation, state.tasks)
        }
        continuation?.resume(with: outcome)
        for task in tasks { task.cancel() }
    }
}
