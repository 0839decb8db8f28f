import Logging
import Synchronization

/// The PostgreSQL connections of one store (Players' or the engine's): at most
/// `maximumConnections` open, each lent to one operation at a time, and
/// every wait bounded.
///
/// Every wait is bounded:
/// - a request waits at most its lease timeout, first come first served,
///   and fails with what it waited for: a connection that could not be
///   made (PostgreSQL's own reason), or one that every other operation
///   held;
/// - each request that finds no free connection opens one (up to the
///   maximum); a connection that cannot be made fails the oldest request
///   at once, rather than being retried without end;
/// - an operation ends at its timeout, or as soon as its connection
///   closes (``ConnectionRace``); its connection is then closed and
///   dropped;
/// - a connection found closed is dropped, never lent;
/// - ``close()`` fails every request and closes every connection.
///
/// ```swift
/// let pool = try PostgresConnectionPool(url: url, connectTimeout: .seconds(10), logger: logger)
/// let count = try await pool.withTransaction(logger: logger) { connection in
///     try await connection.query("SELECT count(*) FROM player", logger: logger).count
/// }
/// await pool.close()
/// ```
package final class PostgresConnectionPool: Sendable {
    private struct Request {
        var id: Int
        var continuation: CheckedContinuation<PooledConnection, any Error>
        var deadline: Task<Void, Never>?
    }

    private struct State {
        var idle: [PooledConnection] = []
        /// Connections idle, lent or being made: never above the maximum.
        var open = 0
        var connecting = 0
        var requests: [Request] = []
        var nextRequestID = 0
        var isClosed = false
    }

    /// What a change of state asks for, done outside the lock.
    private struct Effects {
        var resumptions: [(CheckedContinuation<PooledConnection, any Error>, Result<PooledConnection, any Error>)] = []
        var cancellations: [Task<Void, Never>] = []
        var connectionsToMake = 0
        var connectionsToClose: [PooledConnection] = []
    }

    package let url: PostgresURL
    package let maximumConnections: Int
    /// How long making a connection may take, from the TCP connection to
    /// the end of its authentication.
    package let connectTimeout: Duration
    /// How long a request waits for a connection, unless it says otherwise.
    package let leaseTimeout: Duration
    /// How long an operation may hold its connection, unless it says
    /// otherwise.
    package let operationTimeout: Duration
    private let logger: Logger
    private let state = Mutex(State())
    private let nextConnectionID = Atomic(1)

    package init(
        url: PostgresURL,
        maximumConnections: Int = 20,
        connectTimeout: Duration,
        leaseTimeout: Duration = .seconds(30),
        operationTimeout: Duration = .seconds(60),
        logger: Logger
    ) {
        precondition(maximumConnections > 0, "a pool needs at least one connection")
        self.url = url
        self.maximumConnections = maximumConnections
        self.connectTimeout = connectTimeout
        self.leaseTimeout = leaseTimeout
        self.operationTimeout = operationTimeout
        self.logger = logger
    }

    /// How many requests wait for a connection.
    package var waitingRequestCount: Int {
        state.withLock { $0.requests.count }
    }

    /// Makes one connection that the caller owns and closes, bounded by the
    /// connect timeout; a failure is one ``PostgresStoreError`` sentence.
    package func connect() async throws -> PostgresConnection {
        let id = nextConnectionID.add(1, ordering: .relaxed).oldValue
        return try await PostgresConnection.connect(to: url, timeout: connectTimeout, id: id, logger: logger)
    }

    /// Runs `body` with a connection lent by the pool.
    ///
    /// - Parameters:
    ///   - leaseTimeout: how long to wait for a connection (by default the
    ///     pool's).
    ///   - operationTimeout: how long `body` may hold it (by default the
    ///     pool's): past it, or once the connection closes, this throws
    ///     without waiting for `body`, and the connection is dropped.
    package func withConnection<Result: Sendable>(
        leaseTimeout: Duration? = nil,
        operationTimeout: Duration? = nil,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        let timeout = operationTimeout ?? self.operationTimeout
        let outcome = try await run(leaseTimeout: leaseTimeout, operationTimeout: timeout, body)
        return try value(of: outcome, timeout)
    }

    /// Runs `body` in a transaction begun by `begin` (`BEGIN`, or one with
    /// its modes), committed when `body` returns and rolled back when it
    /// throws; `body`'s own error is thrown.
    ///
    /// A connection that PostgreSQL closed while it was idle (a restart, a
    /// failover, `pg_terminate_backend`) fails before its `BEGIN` is
    /// answered, which changed nothing: the transaction then starts on
    /// another connection, rather than failing a request for a connection
    /// that no longer exists.
    package func withTransaction<Result: Sendable>(
        leaseTimeout: Duration? = nil,
        operationTimeout: Duration? = nil,
        begin: PostgresQuery = "BEGIN",
        logger: Logger,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        let timeout = operationTimeout ?? self.operationTimeout
        var closedConnections = 0
        while true {
            let begun = Flag()
            let outcome = try await run(leaseTimeout: leaseTimeout, operationTimeout: timeout) { connection in
                do {
                    try await connection.query(begin, logger: logger)
                } catch where connection.isClosed {
                    throw ClosedBeforeBegin()
                }
                begun.set()
                let result: Result
                do {
                    result = try await body(connection)
                } catch {
                    do {
                        try await connection.query("ROLLBACK", logger: logger)
                    } catch {
                        // Its transaction state is unknown: never lend it again.
                        connection.close()
                    }
                    throw error
                }
                try await connection.query("COMMIT", logger: logger)
                return result
            }
            switch outcome {
            case .finished(.failure(is ClosedBeforeBegin)),
                 .connectionClosed where !begun.isSet:
                // Each closed connection is dropped: past as many as the
                // pool holds, PostgreSQL itself is failing.
                closedConnections += 1
                if closedConnections > maximumConnections { return try value(of: ConnectionRace<Result>.Outcome.connectionClosed, timeout) }
            default:
                return try value(of: outcome, timeout)
            }
        }
    }

    /// A connection found closed when its transaction began (the close
    /// may also end the race first, with `BEGIN` unanswered).
    private struct ClosedBeforeBegin: Error {}

    /// Leases a connection, runs `body` on it in a ``ConnectionRace``, and
    /// gives the connection back: for reuse when `body` ended, closed
    /// otherwise, since `body` may still be using it.
    private func run<Result: Sendable>(
        leaseTimeout: Duration?,
        operationTimeout: Duration,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> Result
    ) async throws -> ConnectionRace<Result>.Outcome {
        let pooled = try await lease(timeout: leaseTimeout ?? self.leaseTimeout)
        let outcome = await ConnectionRace.run(on: pooled, timeout: operationTimeout, body)
        if case .finished = outcome {
            giveBack(pooled)
        } else {
            pooled.close()
            giveBack(pooled)
        }
        return outcome
    }

    /// The result of an operation, or the error that says why it has none.
    private func value<Result>(of outcome: ConnectionRace<Result>.Outcome, _ timeout: Duration) throws -> Result {
        switch outcome {
        case .finished(let result):
            return try result.get()
        case .timedOut:
            throw PostgresStoreError.noAnswer(endpoint: url.endpointDescription, seconds: timeout.components.seconds)
        case .connectionClosed:
            throw PostgresStoreError.connectionLost(endpoint: url.endpointDescription, reason: "")
        case .cancelled:
            throw CancellationError()
        }
    }

    /// Fails every waiting request and later ones with
    /// ``PostgresStoreError/closed``, and closes the idle connections;
    /// a lent connection is closed when it is given back.
    package func close() async {
        var effects = Effects()
        let idle = state.withLock { state in
            state.isClosed = true
            for request in state.requests {
                effects.resumptions.append((request.continuation, .failure(PostgresStoreError.closed)))
                if let deadline = request.deadline { effects.cancellations.append(deadline) }
            }
            state.requests = []
            state.open -= state.idle.count
            defer { state.idle = [] }
            return state.idle
        }
        perform(effects)
        for pooled in idle {
            pooled.close()
        }
    }

    // MARK: - Lending

    private func lease(timeout: Duration) async throws -> PooledConnection {
        let id = state.withLock { state in
            defer { state.nextRequestID += 1 }
            return state.nextRequestID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                var effects = Effects()
                let waits = state.withLock { state -> Bool in
                    if state.isClosed {
                        effects.resumptions.append((continuation, .failure(PostgresStoreError.closed)))
                        return false
                    }
                    // Checked under the lock: a cancellation whose handler
                    // ran before it found no request to fail.
                    if Task.isCancelled {
                        effects.resumptions.append((continuation, .failure(CancellationError())))
                        return false
                    }
                    state.requests.append(Request(id: id, continuation: continuation))
                    serve(&state, &effects)
                    return state.requests.contains { $0.id == id }
                }
                perform(effects)
                if waits { startDeadline(of: id, timeout) }
            }
        } onCancel: {
            fail(id, with: CancellationError())
        }
    }

    private func startDeadline(of id: Int, _ timeout: Duration) {
        let deadline = Task { [self] in
            guard (try? await Task.sleep(for: timeout)) != nil else { return }
            let error = state.withLock { state in
                state.connecting > 0
                    ? PostgresStoreError.noAnswer(endpoint: url.endpointDescription, seconds: timeout.components.seconds)
                    : PostgresStoreError.noFreeConnection(seconds: timeout.components.seconds, connections: maximumConnections)
            }
            fail(id, with: error)
        }
        let isWaiting = state.withLock { state in
            guard let index = state.requests.firstIndex(where: { $0.id == id }) else { return false }
            state.requests[index].deadline = deadline
            return true
        }
        if !isWaiting { deadline.cancel() }
    }

    private func fail(_ id: Int, with error: any Error) {
        var effects = Effects()
        state.withLock { state in
            guard let index = state.requests.firstIndex(where: { $0.id == id }) else { return }
            let request = state.requests.remove(at: index)
            effects.resumptions.append((request.continuation, .failure(error)))
            if let deadline = request.deadline { effects.cancellations.append(deadline) }
        }
        perform(effects)
    }

    private func giveBack(_ connection: PooledConnection) {
        var effects = Effects()
        state.withLock { state in
            if state.isClosed || connection.isClosed {
                state.open -= 1
                effects.connectionsToClose.append(connection)
            } else {
                state.idle.append(connection)
            }
            serve(&state, &effects)
        }
        perform(effects)
    }

    /// Lends idle connections to the oldest requests, and starts making
    /// one for each request left that no connection being made will serve.
    private func serve(_ state: inout State, _ effects: inout Effects) {
        while !state.requests.isEmpty, let connection = state.idle.popLast() {
            guard !connection.isClosed else {
                state.open -= 1
                continue
            }
            let request = state.requests.removeFirst()
            effects.resumptions.append((request.continuation, .success(connection)))
            if let deadline = request.deadline { effects.cancellations.append(deadline) }
        }
        let wanted = min(state.requests.count - state.connecting, maximumConnections - state.open)
        if wanted > 0 {
            state.open += wanted
            state.connecting += wanted
            effects.connectionsToMake += wanted
        }
    }

    private func perform(_ effects: Effects) {
        for (continuation, result) in effects.resumptions { continuation.resume(with: result) }
        for task in effects.cancellations { task.cancel() }
        for _ in 0..<effects.connectionsToMake {
            Task { [self] in
                let made: Result<PooledConnection, any Error>
                do { made = .success(PooledConnection(try await connect())) } catch { made = .failure(error) }
                connectionMade(made)
            }
        }
        // Given back to a closed pool, or made after it closed.
        for connection in effects.connectionsToClose where !connection.connection.isClosed {
            connection.close()
        }
    }

    /// A new connection goes to the oldest request, or stays idle; a
    /// connection that could not be made fails the oldest request.
    private func connectionMade(_ made: Result<PooledConnection, any Error>) {
        var effects = Effects()
        state.withLock { state in
            state.connecting -= 1
            switch made {
            case .success(let connection) where state.isClosed:
                state.open -= 1
                effects.connectionsToClose.append(connection)
            case .success(let connection):
                state.idle.append(connection)
            case .failure(let error):
                state.open -= 1
                if !state.requests.isEmpty {
                    let request = state.requests.removeFirst()
                    effects.resumptions.append((request.continuation, .failure(error)))
                    if let deadline = request.deadline { effects.cancellations.append(deadline) }
                }
            }
            serve(&state, &effects)
        }
        perform(effects)
    }
}
