import CipherDB
import Foundation

/// The keys of end-to-end tables that a device keeps in its encrypted
/// database (`sync_identity`, `sync_partition_key`), made when first
/// saved: its user's identity, and the partition keys it holds by epoch.
/// Neither leaves the device but wrapped (Docs/EndToEnd.md).
///
/// ```swift
/// try db.saveSyncIdentity(SyncStoredIdentity(publicKey: identity.publicKey.bytes, secretKey: identity.secretKey))
/// try db.saveSyncPartitionKeys([SyncStoredPartitionKey(partition: "user:alice", epoch: 1, bytes: key.bytes)])
/// let keys = try db.syncPartitionKeys()
/// ```
extension Database {
    static let identityTable = "sync_identity"
    static let partitionKeyTable = "sync_partition_key"

    /// Keeps the device's identity; the same one again changes nothing.
    /// Throws ``SyncEngineError/otherIdentity`` for another: a device is
    /// one user's, with one key pair.
    public func saveSyncIdentity(_ identity: SyncStoredIdentity) throws {
        try createSyncKeyTables()
        if let kept = try syncIdentity() {
            guard kept == identity else { throw SyncEngineError.otherIdentity }
            return
        }
        try execute(sql: "INSERT INTO \(Self.identityTable) (id, public_key, secret_key) VALUES (1, ?, ?)",
                    arguments: [Data(identity.publicKey), Data(identity.secretKey)])
    }

    /// The device's identity, if it has one.
    public func syncIdentity() throws -> SyncStoredIdentity? {
        guard try tableExists(Self.identityTable),
              let row = try Row.fetchOne(self, sql: "SELECT public_key, secret_key FROM \(Self.identityTable) WHERE id = 1") else {
            return nil
        }
        return SyncStoredIdentity(publicKey: Array(row["public_key"] as Data), secretKey: Array(row["secret_key"] as Data))
    }

    /// Whether a server took the device's identity key as its user's
    /// (``markSyncIdentityPublished()``); false without an identity.
    public func isSyncIdentityPublished() throws -> Bool {
        guard try tableExists(Self.identityTable) else { return false }
        return try Bool.fetchOne(self, sql: "SELECT is_published FROM \(Self.identityTable) WHERE id = 1") ?? false
    }

    /// Records that the server took the identity key: later syncs need
    /// not publish it again.
    public func markSyncIdentityPublished() throws {
        try execute(sql: "UPDATE \(Self.identityTable) SET is_published = 1 WHERE id = 1")
    }

    /// Keeps partition keys, all or none; a key kept again changes
    /// nothing. Throws ``SyncEngineError/otherPartitionKey(partition:epoch:)``
    /// for another key at a partition and epoch kept: an epoch's key never
    /// changes.
    public func saveSyncPartitionKeys(_ keys: [SyncStoredPartitionKey]) throws {
        try inSavepoint {
            try createSyncKeyTables()
            for key in keys {
                if let kept = try Data.fetchOne(self, sql: """
                    SELECT key FROM \(Self.partitionKeyTable) WHERE partition_key = ? AND epoch = ?
                    """, arguments: [key.partition, key.epoch]) {
                    guard Array(kept) == key.bytes else {
                        throw SyncEngineError.otherPartitionKey(partition: key.partition, epoch: key.epoch)
                    }
                    continue
                }
                try execute(sql: "INSERT INTO \(Self.partitionKeyTable) (partition_key, epoch, key) VALUES (?, ?, ?)",
                            arguments: [key.partition, key.epoch, Data(key.bytes)])
            }
            return .commit
        }
    }

    /// The partition keys the device holds, by partition and epoch.
    public func syncPartitionKeys() throws -> [SyncStoredPartitionKey] {
        guard try tableExists(Self.partitionKeyTable) else { return [] }
        return try Row.fetchAll(self, sql: "SELECT partition_key, epoch, key FROM \(Self.partitionKeyTable) ORDER BY partition_key, epoch")
            .map { SyncStoredPartitionKey(partition: $0["partition_key"], epoch: $0["epoch"], bytes: Array($0["key"] as Data)) }
    }

    private func createSyncKeyTables() throws {
        try execute(sql: """
            CREATE TABLE IF NOT EXISTS \(Self.identityTable) (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                public_key BLOB NOT NULL,
                secret_key BLOB NOT NULL,
                is_published INTEGER NOT NULL DEFAULT 0);
            CREATE TABLE IF NOT EXISTS \(Self.partitionKeyTable) (
                partition_key TEXT NOT NULL,
                epoch INTEGER NOT NULL,
                key BLOB NOT NULL,
                PRIMARY KEY (partition_key, epoch)) WITHOUT ROWID;
            """)
    }
}
