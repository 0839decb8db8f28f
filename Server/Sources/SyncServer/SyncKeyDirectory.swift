import Foundation
import SyncSchema

/// The keys of end-to-end tables as the server keeps them, opaque to it
/// (Docs/EndToEnd.md): each user's published identity key, and each
/// partition key wrapped by its partition's owner to one of its readers.
/// A store keeps them beside its rows; the rules of who may publish and
/// wrap are here (``SyncRights/mayWrapKeys(of:)``), and each store applies
/// them in the transaction of the write.
///
/// ```swift
/// let published = try await store.publish(SyncIdentityKey(user: "alice", publicKey: key.text))   // .published
/// let outcome = try await store.store([wrapped], by: alice)                                       // .stored
/// let mine = try await store.wrappedKeys(for: "bob")
/// ```
public protocol SyncKeyDirectory: Sendable {
    /// Publishes a user's identity key; a user's first key stays theirs
    /// (a device with another recovery key cannot replace it).
    func publish(_ key: SyncIdentityKey) async throws -> SyncKeyPublication

    /// The published identity keys of these users (those that have one).
    func identityKeys(of users: [String]) async throws -> [SyncIdentityKey]

    /// Keeps keys wrapped by `user`, all or none: each of a partition the
    /// user owns, and none that replaces another at its partition, epoch
    /// and recipient.
    func store(_ keys: [SyncWrappedKey], by user: SyncUser) async throws -> SyncWrappedKeysOutcome

    /// The keys wrapped to `user`, by partition and epoch.
    func wrappedKeys(for user: String) async throws -> [SyncWrappedKey]
}

/// What publishing an identity key did.
public enum SyncKeyPublication: Sendable, Equatable {
    /// It is the user's key now.
    case published
    /// The user had published this same key (another device of theirs).
    case unchanged
    /// The user has published another key: theirs stays.
    case conflicting
}

/// What storing wrapped keys did; when refused, none was stored.
public enum SyncWrappedKeysOutcome: Sendable, Equatable {
    case stored
    /// A key of a partition the user does not own.
    case notOwner(partition: String)
    /// A key that would replace another at its partition, epoch and
    /// recipient: an epoch's key never changes.
    case conflicting(partition: String, epoch: Int64, recipient: String)
}

extension SyncRights {
    /// Whether the user may wrap the keys of `partition` to its readers:
    /// their own partition, or a group they own, as only a group's owner
    /// writes its memberships.
    public func mayWrapKeys(of partition: String) -> Bool {
        partition == ownPartition || ownedGroups.contains(partition)
    }
}

extension SyncWrappedKeysOutcome {
    /// The outcome of storing `keys` by `rights`' user, given the key kept
    /// at each one's partition, epoch and recipient (`kept`): the rule both
    /// stores apply in the transaction of the write. ``stored`` when every
    /// key is of a partition the user owns, and new or the same as the one
    /// kept.
    public static func check(_ keys: [SyncWrappedKey], rights: SyncRights,
                             kept: (SyncWrappedKey) -> SyncWrappedKey?) -> SyncWrappedKeysOutcome {
        for key in keys {
            guard rights.mayWrapKeys(of: key.partition), key.sender == rights.user.name else { return .notOwner(partition: key.partition) }
            if let existing = kept(key), existing.wrapped != key.wrapped || existing.sender != key.sender {
                return .conflicting(partition: key.partition, epoch: key.epoch, recipient: key.recipient)
            }
        }
        return .stored
    }
}
