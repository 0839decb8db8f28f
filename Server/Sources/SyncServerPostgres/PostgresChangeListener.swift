import Foundation
import Logging
import PostgresClient
import SyncServer
import Synchronization

/// Tells a store's ``SyncServer/StoreChangeNotifier`` of the commits of
/// every instance on the same database: each writing transaction sends a
/// notification of its counter at its commit (``notifyCounter(_:_:)``),
/// and one connection of the store's own listens to them. The players'
/// store and the engine's each have one, on their own channel and counter
/// table.
///
/// ```swift
/// let listener = PostgresChangeListener(channel: "sync_changes", counterTable: "sync_server_counter",
///                                       pool: pool, changes: changes, logger: logger)
/// // in each writing transaction, last:
/// let counter = try await listener.notifyCounter(connection, logger)
/// // at the store's close:
/// await listener.stop()
/// ```
package final class PostgresChangeListener: Sendable {
    /// The channel of the notifications, whose payload is `schema counter`:
    /// instances on other schemas of the same database ignore them.
    let channel: String
    /// The table whose row 1 holds the counter, in `value`.
    let counterTable: String
    let pool: PostgresConnectionPool
    let changes: StoreChangeNotifier
    let logger: Logger
    private let listening = Mutex<Task<Void, Never>?>(nil)

    /// Starts listening, on a connection of its own (outside the pool,
    /// whose operations are bounded), until ``stop()``.
    package init(channel: String, counterTable: String, pool: PostgresConnectionPool, changes: StoreChangeNotifier, logger: Logger) {
        self.channel = channel
        self.counterTable = counterTable
        self.pool = pool
        self.changes = changes
        self.logger = logger
        listening.withLock { $0 = Task { [self] in await listenForChanges() } }
    }

    /// Releases the waiters (the store closes) and stops listening.
    package func stop() async {
        changes.releaseAll()
        let listening = listening.withLock { $0 }
        listening?.cancel()
        await listening?.value
    }

    /// Sends the notification of the counter at the commit of the
    /// transaction, and returns the counter.
    package func notifyCounter(_ connection: PostgresConnection, _ logger: Logger, scope: StoreChangeScope? = nil) async throws -> Int64 {
        let rows = try await connection.query(
            """
            SELECT value, pg_notify(\(channel), current_schema() || ' ' || value::text || ' ' || \(Self.payload(of: scope)))::text
            FROM \(unescaped: counterTable) WHERE id = 1
            """,
            logger: logger)
        for (value, _) in try rows.decode((Int64, String).self) { return value }
        throw PostgresStoreError.counterMissing
    }

    /// Listens to ``channel`` and publishes each counter of this schema to
    /// ``changes``, until the task is cancelled. Once subscribed it reads
    /// the counter, so that a commit notified before the subscription is
    /// not missed. When the connection closes, it reconnects after a
    /// back-off (0.1 s doubling up to 5 s), and once subscribed again wakes
    /// every waiter to read again: the notifications sent meanwhile are
    /// lost, and waking them while the database is unreachable would only
    /// turn their answers into errors. The session runs in a
    /// ``ConnectionRace``, which the store's close ends at once.
    /// The longest scope a notification carries: PostgreSQL takes 8,000
    /// bytes of payload. A longer one is left out, and wakes every waiter.
    static let maximumScopeBytes = 7_000

    /// A commit's scope as its notification carries it: JSON, or nothing
    /// when unknown or too long.
    package static func payload(of scope: StoreChangeScope?) -> String {
        guard let scope, let data = try? JSONEncoder().encode(scope), data.count <= maximumScopeBytes else { return "" }
        return String(decoding: data, as: UTF8.self)
    }

    /// The scope a notification carries; nil (every waiter) when it has none.
    package static func scope(ofPayload payload: Substring) -> StoreChangeScope? {
        payload.isEmpty ? nil : try? JSONDecoder().decode(StoreChangeScope.self, from: Data(payload.utf8))
    }

    private func listenForChanges() async {
        var backOff: Duration = .milliseconds(100)
        var hasListened = false
        while !Task.isCancelled {
            do {
                let pooled = PooledConnection(try await pool.connect())
                let subscribed = Flag()
                let wakesWaiters = hasListened
                let outcome = await ConnectionRace.run(on: pooled, timeout: nil) { [self] connection in
                    try await listen(on: connection) {
                        if wakesWaiters { changes.wakeAll() }
                        subscribed.set()
                    }
                }
                pooled.close()
                if subscribed.isSet {
                    hasListened = true
                    backOff = .milliseconds(100)
                }
                if case .finished(.failure(let error)) = outcome { throw error }
                if !Task.isCancelled { throw PostgresStoreError.listenerClosed }
            } catch {
                if !Task.isCancelled {
                    logger.warning("The connection listening for changes failed; reconnecting.",
                                   metadata: ["channel": "\(channel)", "error": "\(String(reflecting: error))"])
                }
            }
            try? await Task.sleep(for: backOff)
            backOff = min(backOff * 2, .seconds(5))
        }
    }

    /// Subscribes `connection` to ``channel``, calls `subscribed` once the
    /// counter is read, and publishes the counters notified until the
    /// connection fails.
    private func listen(on connection: PostgresConnection, subscribed: @Sendable () -> Void) async throws {
        guard let schema = try await connection.query("SELECT current_schema()::text", logger: logger).first(String.self) else {
            throw PostgresStoreError.noCurrentSchema
        }
        try await connection.query("LISTEN \(unescaped: channel)", logger: logger)
        guard let counter = try await connection.query("SELECT value FROM \(unescaped: counterTable) WHERE id = 1", logger: logger)
            .first(Int64.self) else { throw PostgresStoreError.counterMissing }
        changes.publish(counter)
        subscribed()
        try await connection.waitForNotifications { [changes, channel] notification in
            // The scope, JSON, may hold spaces (a user's name).
            let parts = notification.payload.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
            if notification.channel == channel, parts.count >= 2, parts[0] == schema, let version = Int64(parts[1]) {
                changes.publish(version, scope: parts.count == 3 ? Self.scope(ofPayload: parts[2]) : nil)
            }
        }
    }
}
