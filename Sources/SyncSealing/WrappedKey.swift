import CSodium
import Foundation

/// A partition key wrapped by one user to another's public identity key:
/// what the server stores, for each member of a partition, and cannot
/// open.
///
/// The wrapping is an authenticated box (libsodium's `crypto_box_easy`:
/// X25519, XSalsa20-Poly1305) from the wrapping user's key pair, not an
/// anonymous sealed box: a sealed box would let the server wrap a key of
/// its own choosing to a member, who would then seal new rows under a key
/// the server knows. The box also holds the partition, the epoch and both
/// public keys, checked when it opens, so that a key wrapped for one
/// partition, epoch or user is not taken for another's.
///
/// ```swift
/// let wrapped = try WrappedKey.wrap(key, from: alice, to: bobsPublicKey)
/// let key = try wrapped.unwrap(partition: key.partition, epoch: key.epoch, by: bob, from: alice.publicKey)
/// ```
public struct WrappedKey: Sendable, Equatable {
    /// The nonce, then the box.
    public let bytes: [UInt8]

    static let nonceLength = Int(crypto_box_noncebytes())
    static let macLength = Int(crypto_box_macbytes())

    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Base64 of ``bytes``, as JSON carries it.
    public var text: String {
        Data(bytes).base64EncodedString()
    }

    public init(text: String) throws(SealingError) {
        guard let data = Data(base64Encoded: text) else { throw .wrappedKeyNotAuthentic }
        self.init(bytes: Array(data))
    }

    /// Wraps `key` from `sender` (the user sharing it) to `recipient`.
    public static func wrap(_ key: PartitionKey, from sender: IdentityKeyPair,
                            to recipient: IdentityPublicKey) throws(SealingError) -> WrappedKey {
        try Sodium.ready()
        let message = contents(of: key.partition, epoch: key.epoch, sender: sender.publicKey, recipient: recipient)
            + key.bytes
        let nonce = try Sodium.randomBytes(nonceLength)
        var box = [UInt8](repeating: 0, count: message.count + macLength)
        guard crypto_box_easy(&box, message, UInt64(message.count), nonce, recipient.bytes, sender.secretKey) == 0 else {
            throw .wrappedKeyNotAuthentic
        }
        return WrappedKey(bytes: nonce + box)
    }

    /// The key of `partition` and `epoch`, when the box opens for
    /// `recipient` as wrapped by `sender` for them, and names that
    /// partition and epoch; throws ``SealingError/wrappedKeyNotAuthentic``
    /// otherwise.
    public func unwrap(partition: String, epoch: UInt32, by recipient: IdentityKeyPair,
                       from sender: IdentityPublicKey) throws(SealingError) -> PartitionKey {
        try Sodium.ready()
        guard bytes.count > Self.nonceLength + Self.macLength else { throw .wrappedKeyNotAuthentic }
        let nonce = Array(bytes.prefix(Self.nonceLength)), box = Array(bytes.dropFirst(Self.nonceLength))
        var message = [UInt8](repeating: 0, count: box.count - Self.macLength)
        guard crypto_box_open_easy(&message, box, UInt64(box.count), nonce, sender.bytes, recipient.secretKey) == 0 else {
            throw .wrappedKeyNotAuthentic
        }
        let expected = Self.contents(of: partition, epoch: epoch, sender: sender, recipient: recipient.publicKey)
        guard message.count == expected.count + PartitionKey.length,
              Sodium.constantTimeEqual(Array(message.prefix(expected.count)), expected) else {
            throw .wrappedKeyNotAuthentic
        }
        return try PartitionKey(partition: partition, epoch: epoch, bytes: Array(message.suffix(PartitionKey.length)))
    }

    /// What the box binds the key to.
    private static func contents(of partition: String, epoch: UInt32, sender: IdentityPublicKey,
                                 recipient: IdentityPublicKey) -> [UInt8] {
        var contents = SealingBytes(domain: "CipherDB wrapped key 1")
        contents.append(partition)
        contents.append(epoch)
        contents.append(raw: sender.bytes)
        contents.append(raw: recipient.bytes)
        return contents.bytes
    }
}
