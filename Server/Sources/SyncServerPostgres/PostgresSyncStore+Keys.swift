import Foundation
import Logging
import PostgresClient
import SyncSchema
import SyncServer

/// The keys of end-to-end tables (``SyncKeyDirectory``) in PostgreSQL:
/// `sync_server_identity_key` and `sync_server_wrapped_key`. A write holds
/// the counter's row, as a write of rows does, so that a key is checked
/// against the grants as they stand; it moves no counter and wakes no
/// long-poll (``keyWrite(_:)``).
extension PostgresSyncStore {
    public func publish(_ key: SyncIdentityKey) async throws -> SyncKeyPublication {
        try await keyWrite { connection, logger in
            if let kept = try await connection.query(
                "SELECT public_key FROM sync_server_identity_key WHERE user_name = \(key.user)", logger: logger
            ).first(String.self) {
                return kept == key.publicKey ? .unchanged : .conflicting
            }
            try await connection.query(
                "INSERT INTO sync_server_identity_key (user_name, public_key) VALUES (\(key.user), \(key.publicKey))", logger: logger)
            return .published
        }
    }

    public func identityKeys(of users: [String]) async throws -> [SyncIdentityKey] {
        try await read { connection, logger in
            try await connection.query("""
                SELECT user_name, public_key FROM sync_server_identity_key WHERE user_name = ANY(\(users)) ORDER BY user_name
                """, logger: logger).decode((String, String).self).map { SyncIdentityKey(user: $0.0, publicKey: $0.1) }
        }
    }

    public func store(_ keys: [SyncWrappedKey], by user: SyncUser) async throws -> SyncWrappedKeysOutcome {
        try await keyWrite { [schema] connection, logger in
            var kept: [SyncWrappedKey] = []
            for key in keys {
                if let (sender, wrapped) = try await connection.query("""
                    SELECT sender, wrapped FROM sync_server_wrapped_key
                    WHERE recipient = \(key.recipient) AND partition_key = \(key.partition) AND epoch = \(key.epoch)
                    """, logger: logger).first((String, String).self) {
                    kept.append(SyncWrappedKey(partition: key.partition, epoch: key.epoch, recipient: key.recipient, sender: sender,
                                               wrapped: wrapped))
                }
            }
            let rights = try await PostgresSyncRows(connection: connection, logger: logger, schema: schema).rights(of: user)
            let outcome = SyncWrappedKeysOutcome.check(keys, rights: rights) { key in
                kept.first { $0.partition == key.partition && $0.epoch == key.epoch && $0.recipient == key.recipient }
            }
            guard outcome == .stored else { return outcome }
            for key in keys {
                try await connection.query("""
                    INSERT INTO sync_server_wrapped_key (recipient, partition_key, epoch, sender, wrapped)
                    VALUES (\(key.recipient), \(key.partition), \(key.epoch), \(key.sender), \(key.wrapped))
                    ON CONFLICT DO NOTHING
                    """, logger: logger)
            }
            return .stored
        }
    }

    public func wrappedKeys(for user: String) async throws -> [SyncWrappedKey] {
        try await read { connection, logger in
            try await connection.query("""
                SELECT partition_key, epoch, sender, wrapped FROM sync_server_wrapped_key WHERE recipient = \(user)
                ORDER BY partition_key, epoch
                """, logger: logger).decode((String, Int64, String, String).self).map { row in
                SyncWrappedKey(partition: row.0, epoch: row.1, recipient: user, sender: row.2, wrapped: row.3)
            }
        }
    }

    /// Runs `body` in a transaction that holds the counter's row until its
    /// commit, and notifies no instance: keys are no change of rows.
    private func keyWrite<Result: Sendable>(
        _ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> Result
    ) async throws -> Result {
        try checkOpen()
        return try await pool.withTransaction(logger: logger) { [logger] connection in
            _ = try await connection.lockCounter("sync_server_counter", logger: logger)
            return try await body(connection, logger)
        }
    }
}
