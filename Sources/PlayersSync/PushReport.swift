import Players

/// What a push did: the changes the server applied, those that lost to
/// the server's state, the requests; or, in a dry run, how many changes
/// wait.
public struct PushReport: Equatable, Sendable {
    public var counts = PushCounts()
    /// The changes waiting in a dry run (nothing was sent).
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
