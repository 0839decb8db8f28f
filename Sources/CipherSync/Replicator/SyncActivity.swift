/// What a replicator is doing (``SyncStatus/activity``).
///
/// ```swift
/// switch replicator.status.activity {
/// case .pulling(let progress): print("\(progress.pages) pages received")
/// case .offline(let error): print("offline: \(error)")
/// case .failed(let failure): print("failed: \(failure)")
/// default: break
/// }
/// ```
public enum SyncActivity: Sendable {
    /// Not started, or stopped.
    case idle
    /// Started, or trying again after a failure, and no sync has gone
    /// past its first request yet.
    case connecting
    /// Sending the local changes: `answered` of the `pending` changes
    /// waiting when the push began have their answers recorded.
    case pushing(answered: Int, pending: Int)
    /// Receiving and merging the server's changes.
    case pulling(SyncPullProgress)
    /// Every local change is pushed and every server change merged, as of
    /// ``SyncStatus/lastSyncedAt``; a continuous replicator waits for the
    /// next change, on either side.
    case upToDate
    /// The server cannot be reached (refused, unreachable, timed out, the
    /// connection lost): tried again after ``SyncStatus/retryingIn``.
    case offline(TransportError)
    /// The last sync failed otherwise; tried again after
    /// ``SyncStatus/retryingIn`` unless that is nil (a failure no retry
    /// mends, or a one-shot replicator).
    case failed(SyncFailure)

    /// The activity's case, without what it carries.
    public var kind: Kind {
        switch self {
        case .idle: .idle
        case .connecting: .connecting
        case .pushing: .pushing
        case .pulling: .pulling
        case .upToDate: .upToDate
        case .offline: .offline
        case .failed: .failed
        }
    }

    /// The cases of ``SyncActivity``, to compare.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case idle, connecting, pushing, pulling, upToDate, offline, failed
    }
}

/// How far a pull has come: pages and bytes received, then rows merged.
public struct SyncPullProgress: Sendable, Hashable {
    public var pages = 0
    /// Bytes received, decompressed.
    public var bytes = 0
    /// Staged rows and tombstones merged so far, of ``staged``.
    public var merged = 0
    /// Rows and tombstones to merge, once every page is received.
    public var staged = 0

    public init(pages: Int = 0, bytes: Int = 0, merged: Int = 0, staged: Int = 0) {
        self.pages = pages
        self.bytes = bytes
        self.merged = merged
        self.staged = staged
    }
}
