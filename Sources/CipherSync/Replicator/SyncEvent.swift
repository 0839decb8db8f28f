import SyncEngine

/// What a replicator tells besides its status (``SyncReplicator/events()``):
/// each sync's report, and what happened to single rows.
///
/// ```swift
/// for await event in replicator.events() {
///     switch event {
///     case .conflictKept(let conflict): print("kept for review: \(conflict.table) \(conflict.rowID)")
///     case .rowRemoved(let row): print("deleted by the server: \(row)")
///     case .changeRefused(let row, let reason): print("not pushed: \(row): \(reason)")
///     case .synced, .resumedAfterSleep: break
///     }
/// }
/// ```
public enum SyncEvent: Sendable {
    /// A sync succeeded: what it pushed and pulled.
    case synced(SyncPushPullReport)
    /// A local change lost to the server's state and was kept
    /// (``SyncEngine/SyncConflict``, also in `sync_conflict` until settled).
    case conflictKept(SyncConflict)
    /// A row deleted here because the server deleted it.
    case rowRemoved(SyncRowReference)
    /// A local change refused: before it was sent (the declaration's
    /// rules, or the app's: ``SyncReplicator/Configuration/checkBeforePush``),
    /// and then no push goes out until the row is changed or deleted; or by
    /// the server (the user may not make it: ``SyncError/forbidden``, whose
    /// detail says why), and then it is kept in `sync_conflict` with its
    /// ``SyncEngine/SyncConflict/refusal``, the row back to the server's.
    case changeRefused(SyncRowReference, any Error)
    /// The computer slept while a sync was under way (the wall clock
    /// jumped past the monotonic one): its request, whose connection is
    /// likely dead, was abandoned, and the sync starts again at once.
    case resumedAfterSleep
}
