import Players
import SyncSchema

/// What a push did: the changes the server applied, those that lost to
/// the server's state, the requests, and how many changes were waiting
/// (in a dry run, nothing else: nothing is sent).
public struct PushReport: Equatable, Sendable {
    public var counts = PushCounts()
    /// The local changes waiting when the push started.
    public var pending = 0
    public var batches = 0
    public var bytesReceived = 0

    public init(counts: PushCounts = PushCounts(), pending: Int = 0, batches: Int = 0, bytesReceived: Int = 0) {
        self.counts = counts
        self.pending = pending
        self.batches = batches
        self.bytesReceived = bytesReceived
    }
}

extension PushReport {
    /// Two pushes of one sync as one: the second pushes what the pull
    /// queued again (``SyncCounts/requeued``).
    static func += (lhs: inout PushReport, rhs: PushReport) {
        lhs.counts += rhs.counts
        lhs.pending += rhs.pending
        lhs.batches += rhs.batches
        lhs.bytesReceived += rhs.bytesReceived
    }
}
