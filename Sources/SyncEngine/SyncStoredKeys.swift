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

    public init(partition: String, epoch: UInt32, bytes: [UInt8]) {
        self.partition = partition
        self.epoch = epoch
        self.bytes = bytes
    }
}
