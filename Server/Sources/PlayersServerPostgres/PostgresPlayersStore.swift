import Foundation
import Logging
import PlayersProtocol
import PlayersServerStore
import PostgresClient
import SyncServer
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
    let pool: PostgresConnectionPool
    let logger: Logger
    /// Woken by the notifications of every instance's commits
    /// (``listener``), and by this instance's own at once.
    public let changes: StoreChangeNotifier
    public let history: ServerHistory
    /// Listens to `players_changes`, which every writing transaction
    /// notifies of its counter.
    private let listener: PostgresChangeListener
    private let isClosed = Mutex(false)

    /// Connects, creates or migrates the schema (``migrate(_:logger:)``), and starts
    /// listening for the changes of every instance.
    /// Throws one ``PostgresStoreError`` sentence within `connectTimeout`
    /// when the database cannot be reached, refuses the connection (a
    /// wrong password, a missing database, no TLS where `sslmode` requires
    /// it) or does not answer.
    ///
    /// - Parameters:
    ///   - connectTimeout: how long making a connection may take; also
    ///     bounds ``checkReachable()``.
    ///   - leaseTimeout: how long a read or write waits for a connection.
    ///   - operationTimeout: how long a read or write may take, and the
    ///     migration at the start (which may wait for another instance's).
    public init(
        url: PostgresURL,
        connectTimeout: Duration = .seconds(10),
        leaseTimeout: Duration = .seconds(30),
        operationTimeout: Duration = .seconds(60),
        logger: Logger = Logger(label: "players-server.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
    ) async throws {
        let counter: Int64
        (pool, (history, counter)) = try await PostgresConnectionPool.opened(
            url: url, connectTimeout: connectTimeout, leaseTimeout: leaseTimeout, operationTimeout: operationTimeout, logger: logger
        ) { pool in
            let history = try await Self.migrate(pool, logger: logger)
            let counter = try await pool.withConnection(leaseTimeout: connectTimeout, operationTimeout: connectTimeout) {
                connection in try await Self.counter(connection, logger).value
            }
            return (history, counter)
        }
        self.logger = logger
        changes = StoreChangeNotifier(latestVersion: counter)
        listener = PostgresChangeListener(channel: "players_changes", counterTable: "change_counter", pool: pool, changes: changes,
                                          logger: logger)
    }

    /// Closes the connections: later calls throw.
    public func close() async throws {
        let wasClosed = isClosed.withLock { closed in
            defer { closed = true }
            return closed
        }
        guard !wasClosed else { return }
        await listener.stop()
        await pool.close()
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
            for (uuid, name, score, version) in try rows.decode((UUID, String, Int, Int64).self) {
                players.append(ServerPlayer(uuid: uuid, name: name, score: score, version: version))
            }
            return SnapshotPage(version: counter.value, players: Array(players.prefix(limit)), isLast: players.count <= limit,
                                digest: counter.digest)
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
            for (uuid, name, score, version, deletedAt) in try rows.decode((UUID, String?, Int?, Int64, Date?).self) {
                if let name, let score {
                    changes.append((version, .player(ServerPlayer(uuid: uuid, name: name, score: score, version: version))))
                } else if let deletedAt {
                    changes.append((version, .tombstone(ServerTombstone(uuid: uuid, version: version, deletedAt: deletedAt))))
                }
            }
            return DeltaPage(cutting: changes, limit: limit, since: since, serverVersion: counter.value, digest: counter.digest)
        }
    }

    public func player(_ uuid: UUID) async throws -> ServerPlayer? {
        try await read { connection, logger in
            try await PostgresWrite.player(uuid, connection, logger)
        }
    }

    /// One statement outside a transaction, a lookup by primary key: a
    /// round trip that proves the connection and the schema, bounded by
    /// the connect timeout.
    public func checkReachable() async throws {
        try checkOpen()
        let timeout = pool.connectTimeout
        _ = try await pool.withConnection(leaseTimeout: timeout, operationTimeout: timeout) { [logger] connection in
            try await connection.query("SELECT value FROM change_counter WHERE id = 1", logger: logger)
        }
    }

    // MARK: - Transactions

    /// Runs `body` in a read-only `REPEATABLE READ` transaction: every
    /// statement sees the same snapshot.
    func read<Result: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> Result
    ) async throws -> Result {
        try checkOpen()
        return try await pool.withSnapshotRead(logger: logger) { [logger] connection in try await body(connection, logger) }
    }

    /// Runs `body` in a writing transaction that holds the change counter
    /// (the one writer of the database, across instances) until its
    /// commit, which notifies every instance of the counter.
    func write<Result: Sendable>(_ body: @escaping @Sendable (PostgresWrite) async throws -> Result) async throws -> Result {
        try checkOpen()
        let (result, counter) = try await pool.withTransaction(logger: logger) { [logger, listener] connection in
            let locked = try await connection.lockCounter("change_counter", logger: logger)
            let result = try await body(PostgresWrite(connection: connection, logger: logger, lockedCounter: locked))
            return (result, try await listener.notifyCounter(connection, logger))
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
    static func counter(_ connection: PostgresConnection, _ logger: Logger) async throws
        -> (value: Int64, floor: Int64, digest: PlayersDigest) {
        let rows = try await connection.query("SELECT value, floor, player_count, checksum FROM change_counter WHERE id = 1", logger: logger)
        for (value, floor, players, checksum) in try rows.decode((Int64, Int64, Int, Int64).self) {
            return (value, floor, PlayersDigest(players: players, checksum: UInt64(bitPattern: checksum)))
        }
        throw PostgresStoreError.counterMissing
    }
}
