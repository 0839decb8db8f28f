import CipherDB
import Foundation
import SyncEngine
import TestSupport
import Testing

/// The keys a device keeps for its end-to-end tables: one identity, each
/// epoch's key once, in the encrypted file alone.
@Suite struct SyncStoredKeysTests {
    let notes: NotesDatabase
    let identity = SyncStoredIdentity(publicKey: (0..<32).map { UInt8($0) &* 3 &+ 2 }, secretKey: (0..<32).map { UInt8($0) &* 5 &+ 1 })
    let key = SyncStoredPartitionKey(partition: "user:alice", epoch: 1, bytes: (0..<32).map { UInt8($0) &* 11 &+ 9 }, sender: "alice")

    init() throws {
        notes = try NotesDatabase()
    }

    @Test func aDeviceKeepsOneIdentity() throws {
        try notes.dbPool.write { db in
            #expect(try db.syncIdentity() == nil)
            #expect(try db.syncIdentityUser() == nil)
            try db.saveSyncIdentity(identity)
            try db.saveSyncIdentity(identity)
            let other = SyncStoredIdentity(publicKey: identity.secretKey, secretKey: identity.publicKey)
            #expect(throws: SyncEngineError.otherIdentity) { try db.saveSyncIdentity(other) }
            #expect(try db.syncIdentity() == identity)
            #expect(try db.syncIdentityUser() == nil)
            try db.markSyncIdentityPublished(user: "alice")
            #expect(try db.syncIdentityUser() == "alice")
        }
    }

    @Test func anEpochsKeyIsKeptOnceAndNeverReplaced() throws {
        try notes.dbPool.write { db in
            #expect(try db.syncPartitionKeys().isEmpty)
            let next = SyncStoredPartitionKey(partition: "user:alice", epoch: 2, bytes: Array(key.bytes.reversed()), sender: "alice")
            try db.saveSyncPartitionKeys([key, next])
            try db.saveSyncPartitionKeys([key])
            let replacing = SyncStoredPartitionKey(partition: "user:alice", epoch: 1, bytes: next.bytes, sender: "alice")
            let another = SyncStoredPartitionKey(partition: "user:alice", epoch: 3, bytes: key.bytes, sender: "alice")
            #expect(throws: SyncEngineError.otherPartitionKey(partition: "user:alice", epoch: 1)) {
                try db.saveSyncPartitionKeys([another, replacing])
            }
            #expect(try db.syncPartitionKeys() == [key, next], "all or none: epoch 3 was not kept")
        }
    }

    /// The first identity key read for a user stays theirs on the device.
    @Test func aUsersFirstIdentityKeyIsPinned() throws {
        try notes.dbPool.write { db in
            #expect(try db.syncPinnedIdentityKey(of: "bob") == nil)
            #expect(try db.pinSyncIdentityKey(of: "bob", identity.publicKey) == identity.publicKey)
            #expect(try db.pinSyncIdentityKey(of: "bob", identity.secretKey) == identity.publicKey)
            let pinned = try db.syncPinnedIdentityKey(of: "bob")
            #expect(pinned == identity.publicKey)
        }
    }

    @Test func theRecipientsOfEachKeyAreKept() throws {
        try notes.dbPool.write { db in
            #expect(try db.syncKeyRecipients().isEmpty)
            try db.recordSyncKeyRecipients([key.keyEpoch: ["alice", "bob"]])
            try db.recordSyncKeyRecipients([key.keyEpoch: ["bob"]])
            #expect(try db.syncKeyRecipients() == [key.keyEpoch: ["alice", "bob"]])
        }
    }

    /// The database is encrypted: no key's bytes are in its file.
    @Test func theKeysAreNotInTheFileInTheClear() throws {
        try notes.dbPool.write { db in
            try db.saveSyncIdentity(identity)
            try db.saveSyncPartitionKeys([key])
        }
        try notes.dbPool.close()
        let file = try Data(contentsOf: URL(fileURLWithPath: notes.path))
            + ((try? Data(contentsOf: URL(fileURLWithPath: notes.path + "-wal"))) ?? Data())
        #expect(file.range(of: Data(identity.secretKey)) == nil && file.range(of: Data(key.bytes)) == nil)
    }
}
