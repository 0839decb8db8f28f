import Foundation

/// What a replicator publishes (``SyncReplicator/status``,
/// ``SyncReplicator/statuses()``): its activity, and when it last synced.
///
/// ```swift
/// for await status in replicator.statuses() {
///     if case .upToDate = status.activity { print("synced at \(status.lastSyncedAt!)") }
/// }
/// ```
public struct SyncStatus: Sendable {
    public var activity: SyncActivity
    /// The end of the last sync that succeeded, since the replicator was
    /// made; nil before the first.
    public var lastSyncedAt: Date?
    /// While ``SyncActivity/offline(_:)`` or ``SyncActivity/failed(_:)``:
    /// how long until the next try; nil when none follows.
    public var retryingIn: Duration?

    public init(activity: SyncActivity = .idle, lastSyncedAt: Date? = nil, retryingIn: Duration? = nil) {
        self.activity = activity
        self.lastSyncedAt = lastSyncedAt
        self.retryingIn = retryingIn
    }

    /// Whether a sync has succeeded since the replicator was made.
    public var hasSynced: Bool { lastSyncedAt != nil }
}
