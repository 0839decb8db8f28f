import Foundation

/// What a store forgets once the retention has passed, written once for
/// every store: the tombstones deleted before the limit, and the answers
/// given before it (a change sent again after that is judged again). A
/// delta after a version older than the newest tombstone purged would miss
/// that delete, so the floor rises to that version
/// (``SyncCounter/answersDelta(after:)``), and never goes down.
///
/// ```swift
/// // In one writing transaction:
/// let purge = SyncPurge(olderThan: retention, now: Date())
/// if let floor = purge.raisedFloor(from: counter.floor, newestPurged: newestTombstoneVersion(deletedBefore: purge.limit)) {
///     // store the floor
/// }
/// // delete the tombstones deleted before purge.limit, and the answers given before it
/// ```
public struct SyncPurge: Sendable, Equatable {
    /// The tombstones deleted before it, and the answers given before it,
    /// are forgotten.
    public let limit: Date

    /// The purge that keeps `retention` of history before `now`.
    public init(olderThan retention: TimeInterval, now: Date) {
        limit = now.addingTimeInterval(-retention)
    }

    /// The floor once the tombstones are purged: the newest version among
    /// them (`newestPurged`, nil when there are none), never lower than the
    /// `floor` before; nil when the floor stays as it is, which is then not
    /// written.
    public func raisedFloor(from floor: Int64, newestPurged: Int64?) -> Int64? {
        guard let newestPurged, newestPurged > floor else { return nil }
        return newestPurged
    }
}
