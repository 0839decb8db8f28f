import Foundation
import Logging
import PlayersServerStore
import PostgresNIO
import Synchronization

/// The server's players in a PostgreSQL database, shared by several server
/// instances: the same rules and answers as ``EmbeddedPlayersStore``.
///
/// Change numbering is serialized: every writing transaction first locks
/// the one row of `change_counter` (`SELECT … FOR UPDATE`), and takes its
/// versions from it, so that the lock is held until its commit. Versions
/// are thereby assigned in commit order, across every instance: once a
/// reader sees version `v`, every change below `v` is committed and
/// visible too, and a reader paging a delta never skips a change that
/// another instance commits meanwhile (a sequence would not do: its values
/// are handed out at once and committed in any order). The price is one
/// writer at a time, as on the embedded store. Reads run in `REPEATABLE
/// READ` transactions, so that a page and its counter come from one
/// snapshot.
///
/// ```swift
/// let store = try await PostgresPlayersStore(url: PostgresURL(url))
/// let page = try await store.snapshot(limit: 100, after: nil)
/// try await store.close()
/// ```
public final class PostgresPlayersStore: PlayersStore {
    let client: PostgresClient
    let logger: Logger
    /// How long a connection may take: at start, and for ``checkReachable()``.
    let connectTimeout: Duration
    /// Woken by the notifications of every instance's commits
    /// (``listenForChanges()``), and by this instance's own at once.
    public let changes: StoreChangeNotifier
    private let running: Task<Void, Never>
    private let listening = Mutex<Task<Void, Never>?>(nil)
    private let isClosed = Mutex(false)

    /// Connects, creates or migrates the schema (``migrate()``), and starts
    /// listening for the changes of every instance.
    /// Throws a ``PostgresStoreError`` within `connectTimeout` when the
    /// database cannot be reached or refuses the connection.
    public init(
        url: PostgresURL,
        connectTimeout: Duration = .seconds(10),
        logger: Logger = Logger(label: "players-server.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
    ) async throws {
        try await Self.checkConnection(url, timeout: connectTimeout, logger: logger)
        self.connectTimeout = connectTimeout
        client = PostgresClient(configuration: try url.configuration, backgroundLogger: logger)
        self.logger = logger
        // The first query waits until run() has begun: a lease before it
        // works, but logs a warning.
        let (started, start) = AsyncStream<Void>.makeStream()
        running = Task { [client] in
            start.finish()
            await client.run()
        }
        for await _ in started {}
        changes = StoreChangeNotifier(latestVersion: 0)
        do {
            // Bounded: the pool waits without end for a connection it
            // cannot make, where a store that cannot start must say so.
            let noAnswer = PostgresStoreError("PostgreSQL at \(url.endpointDescription) did not answer within \(connectTimeout.components.seconds) s.")
            let counter = try await DeadlineRace.run(connectTimeout, noAnswer) { [self, client, logger] in
                try await migrate()
                return try await client.withConnection { connection in try await Self.counter(connection, logger).value }
            }
            changes.publish(counter)
        } catch {
            running.cancel()
            await running.value
            throw error
        }
        listening.withLock { $0 = Task { [self] in await listenForChanges() } }
    }

    /// Closes the connections: later calls throw.
    public func close() async throws {
        let wasClosed = isClosed.withLock { closed in
            defer { closed = true }
            return closed
        }
        guard !wasClosed else { return }
        changes.releaseAll()
        // Both are cancelled before either is awaited: the pool's shutdown
        // fails a connection request that the listening task may still
        // wait on (a cancellation that reaches the pool's request before
        // it is queued is lost).
        let listening = listening.withLock { $0 }
        listening?.cancel()
        running.cancel()
        await listening?.value
        await running.value
    }

    // MARK: - Reading

    public func snapshot(limit: Int, after: UUID?) async throws -> SnapshotPage {
        try await read { connection, logger in
            let counter = try await Self.counter(connection, logger)
            let rows = try await connection.query(
                """
                SELECT uuid, name, score, version FROM player
                WHERE \(after)::uuid IS NULL OR uuid > \(after)::uuid ORDER BY uuid LIMIT \(limit + 1)
                """,
                logger: logger)
            var players: [ServerPlayer] = []
            for try await (uuid, name, score, version) in rows.decode((UUID, String, Int, Int64).self) {
                players.append(ServerPlayer(uuid: uuid, name: name, score: score, version: version))
            }
            return SnapshotPage(version: counter.value, players: Array(players.prefix(limit)), isLast: players.count <= limit)
        }
    }

    public func delta(since: Int64, limit: Int) async throws -> DeltaPage? {
        try await read { connection, logger -> DeltaPage? in
            let counter = try await Self.counter(connection, logger)
            guard since >= counter.floor, since <= counter.value else { return nil }
            let rows = try await connection.query(
                """
                SELECT uuid, name, score, version, NULL::timestamptz FROM player WHERE version > \(since)
                UNION ALL
                SELECT uuid, NULL, NULL, version, deleted_at FROM tombstone WHERE version > \(since)
                ORDER BY 4 LIMIT \(limit + 1)
                """,
                logger: logger)
            var changes: [(version: Int64, change: DeltaPage.Change)] = []
            for try await (uuid, name, score, version, deletedAt) in rows.decode((UUID, String?, Int?, Int64, Date?).self) {
                if let name, let score {
                    changes.append((version, .player(ServerPlayer(uuid: uuid, name: name, score: score, version: version))))
                } else if let deletedAt {
                    changes.append((version, .tombstone(ServerTombstone(uuid: uuid, version: version, deletedAt: deletedAt))))
                }
            }
            return DeltaPage(cutting: changes, limit: limit, since: since, serverVersion: counter.value)
        }
    }

    public func player(_ uuid: UUID) async throws -> ServerPlayer? {
        try await read { connection, logger in
            try await PostgresWrite.player(uuid, connection, logger)
        }
    }

    /// One statement outside a transaction, a lookup by primary key: a
    /// round trip that proves the connection and the schema.
    /// Bounded by the connect timeout: while the database refuses
    /// connections, the pool would wait for one without end.
    public func checkReachable() async throws {
        try checkOpen()
        let noAnswer = PostgresStoreError("PostgreSQL did not answer within \(connectTimeout.components.seconds) s.")
        try await DeadlineRace.run(connectTimeout, noAnswer) { [client, logger] in
            _ = try await client.query("SELECT value FROM change_counter WHERE id = 1", logger: logger).collect()
        }
    }

    // MARK: - Transactions

    /// Runs `body` in a read-only `REPEATABLE READ` transaction: every
    /// statement sees the same snapshot.
    func read<Result: Sendable>(
        _ body: (PostgresConnection, Logger) async throws -> Result
    ) async throws -> Result {
        try checkOpen()
        return try await client.withTransaction(logger: logger) { [logger] connection in
            try await connection.query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: logger)
            return try await body(connection, logger)
        }
    }

    /// Runs `body` in a writing transaction that holds the change counter
    /// (the one writer of the database, across instances) until its
    /// commit, which notifies every instance of the counter.
    func write<Result: Sendable>(_ body: (PostgresWrite) async throws -> Result) async throws -> Result {
        try checkOpen()
        let (result, counter) = try await client.withTransaction(logger: logger) { [logger] connection in
            try await connection.query("SELECT value FROM change_counter WHERE id = 1 FOR UPDATE", logger: logger)
            let result = try await body(PostgresWrite(connection: connection, logger: logger))
            return (result, try await Self.notifyCounter(connection, logger))
        }
        // Committed: this instance's waiters need not wait for the
        // notification's round trip.
        changes.publish(counter)
        return result
    }

    private func checkOpen() throws {
        if isClosed.withLock({ $0 }) { throw PostgresStoreError.closed }
    }

    /// The counter and the oldest cursor a delta can start from.
    static func counter(_ connection: PostgresConnection, _ logger: Logger) async throws -> (value: Int64, floor: Int64) {
        let rows = try await connection.query("SELECT value, floor FROM change_counter WHERE id = 1", logger: logger)
        for try await (value, floor) in rows.decode((Int64, Int64).self) {
            return (value, floor)
        }
        throw PostgresStoreError("the change counter is missing from the PostgreSQL database.")
    }
}
