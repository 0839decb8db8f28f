import Foundation
import SyncSchema

/// A change of the outbox as it is pushed: the entry's mutation id, what
/// it does, the row with its values as they were when first sent, and
/// the server's version it was made on
/// (``CipherDB/Database/nextSyncPushBatch(for:maximumChanges:at:)``).
public struct SyncPushChange: Sendable, Equatable {
    /// The outbox entry's id: its place in the push order.
    public var entry: Int64
    /// The same on every retry: the server applies a change once.
    public var mutationID: UUID
    public var operation: SyncOutboxEntry.Operation
    /// The row: for an upsert, the values of the columns it carries (every
    /// one the declaration has, or only those the change touched in a
    /// table merged by column); for a delete, none.
    public var row: SyncRow
    public var baseVersion: Int64?
}
