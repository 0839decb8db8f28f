import Foundation

/// A user's identity key (X25519), as base64 text: what others wrap the
/// keys of partitions they share with the user to.
public struct SyncIdentityKey: Sendable, Hashable, Codable {
    public let user: String
    public let publicKey: String

    public init(user: String, publicKey: String) {
        self.user = user
        self.publicKey = publicKey
    }
}

/// A partition key of one epoch, wrapped by `sender` (the partition's
/// owner, as the token of the request said) to `recipient`: base64 of the
/// box, which the server cannot open.
public struct SyncWrappedKey: Sendable, Hashable, Codable {
    public let partition: String
    public let epoch: Int64
    public let recipient: String
    public let sender: String
    public let wrapped: String

    public init(partition: String, epoch: Int64, recipient: String, sender: String, wrapped: String) {
        self.partition = partition
        self.epoch = epoch
        self.recipient = recipient
        self.sender = sender
        self.wrapped = wrapped
    }
}

