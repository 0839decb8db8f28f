import Foundation
import SyncSchema

/// The identity of a server's database and the epochs of its history
/// (Docs/SyncProtocol.md): what every cursor names. A store reads it when
/// it opens, and a new epoch begins only then (on a database restored from
/// a backup), so it does not change while the store serves.
///
/// ```swift
/// let cursor = store.history.cursor(at: 42)
/// store.history.mismatch(of: cursor) // nil: a delta can answer it
/// ```
public struct ServerHistory: Equatable, Sendable {
    /// The identity of the database, made when it was created.
    public var server: UUID
    /// Oldest first; the last one is the current epoch. Never empty.
    public var epochs: [SyncEpoch]

    public init(server: UUID, epochs: [SyncEpoch]) {
        precondition(!epochs.isEmpty, "a history has an epoch")
        self.server = server
        self.epochs = epochs
    }

    /// The epoch that new cursors name.
    public var currentEpoch: String { epochs[epochs.count - 1].epoch }

    /// The cursor of this history at `counter`.
    public func cursor(at counter: Int64, for user: SyncUser? = nil) -> SyncCursor {
        SyncCursor(counter: counter, epoch: currentEpoch, server: server, user: user.map { SyncCursor.userTag(of: $0.name) })
    }

    /// Why a delta cannot answer `cursor`, or nil when it can (as far as
    /// the history goes: the counter's bounds are the store's), for the
    /// request of `user` (nil: a server of one shared token).
    public func mismatch(of cursor: SyncCursor, for user: SyncUser? = nil) -> CursorMismatch? {
        if cursor.server != server { return .otherServer }
        if cursor.epoch != currentEpoch { return .earlierEpoch }
        if cursor.user != user.map({ SyncCursor.userTag(of: $0.name) }) { return .otherUser }
        return nil
    }

    /// Why a cursor belongs to another history than the server's.
    public enum CursorMismatch: Equatable, Sendable {
        /// Another server's database.
        case otherServer
        /// An epoch before the current one (the database was restored
        /// since), or one that this history never had.
        case earlierEpoch
        /// Issued to another user, or by the server under another kind
        /// of authentication.
        case otherUser
    }
}
