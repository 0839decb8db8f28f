import Foundation

/// A user's identity as a device keeps it, for its end-to-end tables: the
/// user's name (their token's `sub`) and the secret half of their identity
/// key pair (X25519), derived from their recovery key. The engine keeps
/// the bytes and links no cryptography: `SyncRowSealing` makes them keys.
public struct SyncStoredIdentity: Sendable, Equatable {
    public let user: String
    public let secretKey: [UInt8]

    public init(user: String, secretKey: [UInt8]) {
        self.user = user
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
