import CipherDB
import Foundation
import SyncSchema
import SyncServer

/// The keys of end-to-end tables (``SyncKeyDirectory``) in the server's
/// database: `sync_server_identity_key` and `sync_server_wrapped_key`.
extension ServerSyncDatabase {
    /// Publishes a user's identity key, unless they have another.
    public func publish(_ key: SyncIdentityKey) throws -> SyncKeyPublication {
        try writer.write { db in
            if let kept = try String.fetchOne(db, sql: "SELECT public_key FROM sync_server_identity_key WHERE user_name = ?",
                                              arguments: [key.user]) {
                return kept == key.publicKey ? .unchanged : .conflicting
            }
            try db.execute(sql: "INSERT INTO sync_server_identity_key (user_name, public_key) VALUES (?, ?)",
                           arguments: [key.user, key.publicKey])
            return .published
        }
    }

    /// The published identity keys of these users.
    public func identityKeys(of users: [String]) throws -> [SyncIdentityKey] {
        try writer.read { db in
            try users.chunked(Self.chunkSize).flatMap { chunk in
                try Row.fetchAll(db, sql: """
                    SELECT user_name, public_key FROM sync_server_identity_key
                    WHERE user_name IN (\(databaseQuestionMarks(count: chunk.count))) ORDER BY user_name
                    """, arguments: StatementArguments(Array(chunk))).map { SyncIdentityKey(user: $0["user_name"], publicKey: $0["public_key"]) }
            }
        }
    }

    /// Keeps keys wrapped by `user`, all or none, by
    /// ``SyncWrappedKeysOutcome/check(_:rights:kept:)``.
    public func store(_ keys: [SyncWrappedKey], by user: SyncUser) throws -> SyncWrappedKeysOutcome {
        try writer.write { db in
            var kept: [SyncWrappedKey] = []
            for key in keys {
                if let row = try Row.fetchOne(db.cachedStatement(sql: """
                    SELECT sender, wrapped FROM sync_server_wrapped_key WHERE recipient = ? AND partition_key = ? AND epoch = ?
                    """), arguments: [key.recipient, key.partition, key.epoch]) {
                    kept.append(SyncWrappedKey(partition: key.partition, epoch: key.epoch, recipient: key.recipient,
                                               sender: row["sender"], wrapped: row["wrapped"]))
                }
            }
            let outcome = SyncWrappedKeysOutcome.check(keys, rights: try rights(db, of: user)) { key in
                kept.first { $0.partition == key.partition && $0.epoch == key.epoch && $0.recipient == key.recipient }
            }
            guard outcome == .stored else { return outcome }
            for key in keys {
                try db.execute(sql: """
                    INSERT OR IGNORE INTO sync_server_wrapped_key (recipient, partition_key, epoch, sender, wrapped) VALUES (?, ?, ?, ?, ?)
                    """, arguments: [key.recipient, key.partition, key.epoch, key.sender, key.wrapped])
            }
            return .stored
        }
    }

    /// The keys wrapped to `user`, by partition and epoch.
    public func wrappedKeys(for user: String) throws -> [SyncWrappedKey] {
        try writer.read { db in
            try Row.fetchAll(db, sql: """
                SELECT partition_key, epoch, sender, wrapped FROM sync_server_wrapped_key WHERE recipient = ? ORDER BY partition_key, epoch
                """, arguments: [user]).map { row in
                SyncWrappedKey(partition: row["partition_key"], epoch: row["epoch"], recipient: user, sender: row["sender"],
                               wrapped: row["wrapped"])
            }
        }
    }
}
