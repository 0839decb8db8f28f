import Foundation
import Logging
import PlayersServerStore
import PostgresClient

extension PostgresPlayersStore {
    /// The channel of the notifications that writing transactions send at
    /// their commit, whose payload is `schema counter`: instances on other
    /// schemas of the same database ignore them.
    static let changesChannel = "players_changes"

    /// Sends the notification of the counter at the commit of the
    /// transaction, and returns the counter.
    static func notifyCounter(_ connection: PostgresConnection, _ logger: Logger) async throws -> Int64 {
        let rows = try await connection.query(
            """
            SELECT value, pg_notify(\(changesChannel), current_schema() || ' ' || value::text)::text
            FROM change_counter WHERE id = 1
            """,
            logger: logger)
        for (value, _) in try rows.decode((Int64, String).self) { return value }
        throw PostgresStoreError.counterMissing
    }

    /// Holds one connection of its own (outside the pool, whose operations
    /// are bounded) that listens to ``changesChannel`` and publishes each
    /// counter of this schema to ``changes``, until the task is cancelled.
    /// Once subscribed it reads the counter, so that a commit notified
    /// before the subscription is not missed. When the connection closes,
    /// it reconnects after a back-off (0.1 s doubling up to 5 s), and once
    /// subscribed again wakes every waiter to read again: the
    /// notifications sent meanwhile are lost, and waking them while the
    /// database is unreachable would only turn their answers into errors.
    /// The session runs in a ``ConnectionRace``, which the store's close
    /// ends at once.
    func listenForChanges() async {
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
                    logger.warning("The connection listening for changes failed; reconnecting.", metadata: ["error": "\(String(reflecting: error))"])
                }
            }
            try? await Task.sleep(for: backOff)
            backOff = min(backOff * 2, .seconds(5))
        }
    }

    /// Subscribes `connection` to ``changesChannel``, calls `subscribed`
    /// once the counter is read, and publishes the counters notified until
    /// the connection fails.
    private func listen(on connection: PostgresConnection, subscribed: @Sendable () -> Void) async throws {
        guard let schema = try await connection.query("SELECT current_schema()::text", logger: logger).first(String.self) else {
            throw PostgresStoreError.noCurrentSchema
        }
        try await connection.query("LISTEN \(unescaped: Self.changesChannel)", logger: logger)
        changes.publish(try await Self.counter(connection, logger).value)
        subscribed()
        try await connection.waitForNotifications { [changes] notification in
            let parts = notification.payload.split(separator: " ")
            if notification.channel == Self.changesChannel, parts.count == 2, parts[0] == schema, let version = Int64(parts[1]) {
                changes.publish(version)
            }
        }
    }
}
