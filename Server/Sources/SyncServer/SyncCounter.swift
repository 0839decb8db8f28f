/// A store's change counter and its floor, which every store keeps in one
/// row (`sync_server_counter`): what a delta can answer is decided here,
/// once, from them, for every store.
///
/// ```swift
/// let counter = SyncCounter(value: 42, floor: 7)
/// counter.answersDelta(after: 6)  // false: a tombstone after 6 may be purged: a snapshot
/// counter.answersDelta(after: 42) // true: an empty delta
/// ```
public struct SyncCounter: Sendable, Equatable {
    /// The version of the last change.
    public var value: Int64
    /// The oldest version a delta can start after: the newest version of
    /// the tombstones purged (``SyncPurge``), 0 while none is.
    public var floor: Int64

    public init(value: Int64, floor: Int64) {
        self.value = value
        self.floor = floor
    }

    /// Whether the changes after `version` can be answered as a delta: not
    /// when `version` is older than the floor (a tombstone it needs may be
    /// purged), nor later than the counter (a version this history never
    /// gave). A client whose version is refused takes a snapshot.
    public func answersDelta(after version: Int64) -> Bool {
        version >= floor && version <= value
    }
}
