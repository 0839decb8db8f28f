import CipherDB
import Foundation

/// The keys of end-to-end tables that a device keeps in its encrypted
/// database, made when first saved: its user's identity
/// (`sync_identity`), the partition keys it holds by epoch and who made
/// each (`sync_partition_key`), the identity keys of the users it took
/// keys from or wrapped keys to (`sync_pinned_identity`), and whom it
/// wrapped each key to (`sync_key_recipient`).
/// Neither leaves the device but wrapped (Docs/EndToEnd.md).
///
/// ```swift
/// try db.saveSyncIdentity(SyncStoredIdentity(publicKey: identity.publicKey.bytes, secretKey: identity.secretKey))
/// try db.saveSyncPartitionKeys([SyncStoredPartitionKey(partition: "user:alice", epoch: 1, bytes: key.bytes, sender: "alice")])
/// let keys = try db.syncPartitionKeys()
/// ```
extension Database {
    static let identityTable = "sync_identity"
    static let partitionKeyTable = "sync_partition_key"
    static let pinnedIdentityTable = "sync_pinned_identity"
    static let keyShareTable = "sync_key_recipient"

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

    /// The user a server took the device's identity key for
    /// (``markSyncIdentityPublished(user:)``): the owner of the rows it
    /// creates. Nil until then, and without an identity.
    public func syncIdentityUser() throws -> String? {
        guard try tableExists(Self.keyShareTable) else { return nil }
        return try String.fetchOne(self, sql: "SELECT user FROM \(Self.identityTable) WHERE id = 1 AND is_published")
    }

    /// Records that the server took the identity key as `user`'s: later
    /// syncs need not publish it again.
    public func markSyncIdentityPublished(user: String) throws {
        try createSyncKeyTables()
        try execute(sql: "UPDATE \(Self.identityTable) SET is_published = 1, user = ? WHERE id = 1", arguments: [user])
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
                try execute(sql: "INSERT INTO \(Self.partitionKeyTable) (partition_key, epoch, key, sender) VALUES (?, ?, ?, ?)",
                            arguments: [key.partition, key.epoch, Data(key.bytes), key.sender])
            }
            return .commit
        }
    }

    /// The partition keys the device holds, by partition and epoch.
    public func syncPartitionKeys() throws -> [SyncStoredPartitionKey] {
        // Keys of the release before senders were kept were made by tests
        // alone: a database of that layout holds none to read.
        guard try tableExists(Self.keyShareTable) else { return [] }
        return try Row.fetchAll(self, sql: """
            SELECT partition_key, epoch, key, sender FROM \(Self.partitionKeyTable) ORDER BY partition_key, epoch
            """).map(SyncStoredPartitionKey.init(row:))
    }

    /// The key of `partition`'s latest epoch that the device holds: the
    /// one it seals under.
    public func latestSyncPartitionKey(_ partition: String) throws -> SyncStoredPartitionKey? {
        guard try tableExists(Self.keyShareTable) else { return nil }
        let statement = try cachedStatement(sql: """
            SELECT partition_key, epoch, key, sender FROM \(Self.partitionKeyTable) WHERE partition_key = ? ORDER BY epoch DESC LIMIT 1
            """)
        return try Row.fetchOne(statement, arguments: [partition]).map(SyncStoredPartitionKey.init(row:))
    }

    /// The identity key kept for `user`: the first one this device read
    /// for them (trust on first use), which later keys from them must
    /// match.
    public func syncPinnedIdentityKey(of user: String) throws -> [UInt8]? {
        guard try tableExists(Self.pinnedIdentityTable) else { return nil }
        return try Data.fetchOne(self, sql: "SELECT public_key FROM \(Self.pinnedIdentityTable) WHERE user = ?", arguments: [user])
            .map(Array.init)
    }

    /// Keeps `user`'s identity key unless one is kept for them already;
    /// returns the one kept.
    @discardableResult
    public func pinSyncIdentityKey(of user: String, _ publicKey: [UInt8]) throws -> [UInt8] {
        try createSyncKeyTables()
        try execute(sql: "INSERT OR IGNORE INTO \(Self.pinnedIdentityTable) (user, public_key) VALUES (?, ?)",
                    arguments: [user, Data(publicKey)])
        return try syncPinnedIdentityKey(of: user) ?? publicKey
    }

    /// The users each partition key was wrapped to and stored on the
    /// server, by partition and epoch.
    public func syncKeyRecipients() throws -> [SyncKeyEpoch: Set<String>] {
        guard try tableExists(Self.keyShareTable) else { return [:] }
        var recipients: [SyncKeyEpoch: Set<String>] = [:]
        for row in try Row.fetchAll(self, sql: "SELECT partition_key, epoch, recipient FROM \(Self.keyShareTable)") {
            recipients[SyncKeyEpoch(partition: row["partition_key"], epoch: row["epoch"]), default: []].insert(row["recipient"])
        }
        return recipients
    }

    /// Forgets whom the keys were wrapped to: a server whose history went
    /// back (restored from a backup), or another server, may lack them, so
    /// the next key exchange wraps them all again (the server takes again
    /// the keys it kept).
    public func forgetSyncKeyRecipients() throws {
        guard try tableExists(Self.keyShareTable) else { return }
        try execute(sql: "DELETE FROM \(Self.keyShareTable)")
    }

    /// Records that a partition key was wrapped to these users and stored
    /// on the server.
    public func recordSyncKeyRecipients(_ recipients: [SyncKeyEpoch: Set<String>]) throws {
        try createSyncKeyTables()
        for (key, users) in recipients {
            for user in users {
                try execute(sql: "INSERT OR IGNORE INTO \(Self.keyShareTable) (partition_key, epoch, recipient) VALUES (?, ?, ?)",
                            arguments: [key.partition, key.epoch, user])
            }
        }
    }

    private func createSyncKeyTables() throws {
        guard try !tableExists(Self.keyShareTable) else { return }
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
            CREATE TABLE \(Self.pinnedIdentityTable) (
                user TEXT PRIMARY KEY NOT NULL,
                public_key BLOB NOT NULL) WITHOUT ROWID;
            CREATE TABLE \(Self.keyShareTable) (
                partition_key TEXT NOT NULL,
                epoch INTEGER NOT NULL,
                recipient TEXT NOT NULL,
                PRIMARY KEY (partition_key, epoch, recipient)) WITHOUT ROWID;
            """)
        // The columns of the release that kept only the identity: the
        // user its key was published for, and who made each key.
        if try !columns(in: Self.identityTable).contains(where: { $0.name == "user" }) {
            try execute(sql: "ALTER TABLE \(Self.identityTable) ADD COLUMN user TEXT")
        }
        if try !columns(in: Self.partitionKeyTable).contains(where: { $0.name == "sender" }) {
            try execute(sql: "ALTER TABLE \(Self.partitionKeyTable) ADD COLUMN sender TEXT NOT NULL DEFAULT ''")
        }
    }
}

private extension SyncStoredPartitionKey {
    init(row: Row) {
        self.init(partition: row["partition_key"], epoch: row["epoch"], bytes: Array(row["key"] as Data), sender: row["sender"])
    }
}
