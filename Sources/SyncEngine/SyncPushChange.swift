import Foundation
import SyncSchema

/// A change of the outbox as it is pushed: the change that goes on the
/// wire (its mutation id, what it does, the row with its values as they
/// were when first sent, the server's version it was made on) and the
/// outbox entry it comes from
/// (``CipherDB/Database/nextSyncPushBatch(for:maximumChanges:at:)``).
///
/// ```swift
/// let batch = try dbQueue.write { db in try db.nextSyncPushBatch(for: schema) }
/// batch[0].mutationID   // the change's, read through
/// ```
@dynamicMemberLookup
public struct SyncPushChange: Sendable, Equatable {
    /// The outbox entry's id: its place in the push order.
    public var entry: Int64
    public var change: SyncChange

    public subscript<T>(dynamicMember keyPath: KeyPath<SyncChange, T>) -> T {
        change[keyPath: keyPath]
    }
}
