import Foundation

/// A user's identity as a device keeps it, for its end-to-end tables: the
/// two halves of their identity key pair (X25519), derived from their
/// recovery key. The engine keeps the bytes and links no cryptography:
/// `SyncSealing` derives and uses them; a sync publishes the public half
/// (Docs/EndToEnd.md).
public struct SyncStoredIdentity: Sendable, Equatable {
    public let publicKey: [UInt8]
    public let secretKey: [UInt8]

    public init(publicKey: [UInt8], secretKey: [UInt8]) {
        self.publicKey = publicKey
        self.secretKey = secretKey
    }
}

/// A partition key of one epoch as a device keeps it: made on the device
/// (its user's partitions), or unwrapped from the key directory.
public struct SyncStoredPartitionKey: Sendable, Equatable {
    public let partition: String
    public let epoch: UInt32
    public let bytes: [UInt8]
    /// The user who made it: the device's own user, or the owner of the
    /// group who wrapped it to them.
    public let sender: String

    public init(partition: String, epoch: UInt32, bytes: [UInt8], sender: String) {
        self.partition = partition
        self.epoch = epoch
        self.bytes = bytes
        self.sender = sender
    }

    /// Its partition and epoch.
    public var keyEpoch: SyncKeyEpoch {
        SyncKeyEpoch(partition: partition, epoch: epoch)
    }
}

/// A partition and one epoch of its keys.
public struct SyncKeyEpoch: Sendable, Hashable {
    public let partition: String
    public let epoch: UInt32

    public init(partition: String, epoch: UInt32) {
        self.partition = partition
        self.epoch = epoch
    }
}
