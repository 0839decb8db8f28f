import SyncSchema

/// What a push did: the changes the server applied, those that lost to
/// the server's state, the requests, and how many changes were waiting
/// (in a dry run, nothing else: nothing is sent).
public struct SyncPushReport: Equatable, Sendable {
    public var counts = SyncPushCounts()
    /// The local changes waiting when the push started.
    public var pending = 0
    public var batches = 0
    public var bytesReceived = 0
    /// The changes of end-to-end tables left in the outbox because the
    /// device holds no key of their row's partition yet: the next sync
    /// pushes them once it does.
    public var waitingForKeys = 0
    /// The rows of end-to-end tables whose server state, in an answer,
    /// the device refused: their changes stay in the outbox.
    public var refusedRows: [SyncRefusedRow] = []

    public init(counts: SyncPushCounts = SyncPushCounts(), pending: Int = 0, batches: Int = 0, bytesReceived: Int = 0) {
        self.counts = counts
        self.pending = pending
        self.batches = batches
        self.bytesReceived = bytesReceived
    }

    /// Two pushes of one sync as one: the second pushes what the pull
    /// queued again (``CipherSync/SyncCounts/requeued``).
    public static func += (lhs: inout SyncPushReport, rhs: SyncPushReport) {
        lhs.counts += rhs.counts
        lhs.pending += rhs.pending
        lhs.batches += rhs.batches
        lhs.bytesReceived += rhs.bytesReceived
        lhs.waitingForKeys = rhs.waitingForKeys
        lhs.refusedRows += rhs.refusedRows
    }
}
