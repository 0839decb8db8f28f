import CSodium

/// A partition's data key of one epoch: 256 random bits that seal the rows
/// of one partition (a user's own rows, or one group's) written while the
/// epoch is current. A key is made on a device and reaches other devices
/// only wrapped (``WrappedKey``): the server never holds one it can open.
///
/// ```swift
/// let key = try PartitionKey.random(partition: "group:notebook:4F1C…", epoch: 1)
/// let sealed = try SealedValue.seal(plaintext, for: row, key: key, sealedCounter: 8, change: mutationID)
/// ```
///
/// Its bytes stay in Swift arrays, which Swift may copy: they are not
/// locked in memory nor wiped when released.
public struct PartitionKey: Sendable, Equatable {
    /// The partition whose rows it seals, as the server names it
    /// (`user:NAME`, `group:TABLE:ID`).
    public let partition: String

    /// Its number among the partition's keys, from 1: a new epoch begins
    /// when a member is removed.
    public let epoch: UInt32

    /// The key itself, ``length`` bytes.
    public let bytes: [UInt8]

    /// The length of a key in bytes (XChaCha20-Poly1305's).
    public static let length = Int(crypto_aead_xchacha20poly1305_ietf_keybytes())

    /// A key of `partition` and `epoch` of these bytes, read back from
    /// where a device keeps it.
    public init(partition: String, epoch: UInt32, bytes: [UInt8]) throws(SealingError) {
        guard bytes.count == Self.length else { throw .invalidKeyLength(kind: "partition key", length: bytes.count) }
        self.partition = partition
        self.epoch = epoch
        self.bytes = bytes
    }

    /// A new key of random bytes.
    public static func random(partition: String, epoch: UInt32) throws(SealingError) -> PartitionKey {
        try PartitionKey(partition: partition, epoch: epoch, bytes: Sodium.randomBytes(length))
    }

    /// Compares the bytes in constant time.
    public static func == (lhs: PartitionKey, rhs: PartitionKey) -> Bool {
        lhs.partition == rhs.partition && lhs.epoch == rhs.epoch && Sodium.constantTimeEqual(lhs.bytes, rhs.bytes)
    }
}
