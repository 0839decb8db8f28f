/// One epoch of a server database's history, as a snapshot lists them
/// (`epochs`, oldest first; the last is the snapshot cursor's): `start` is
/// the change counter when it began, 0 for the first. An epoch begins when
/// the database is restored from a backup made at `start`: the history of
/// the epoch before it is shared up to `start`, and lost after.
///
/// ```swift
/// let epochs = [SyncEpoch(epoch: "7f3a9c2e1b5d4f60", start: 0), SyncEpoch(epoch: "0b5d4f607f3a9c2e", start: 120)]
/// SyncEpoch.sharedCounter(epochs, epoch: "7f3a9c2e1b5d4f60", counter: 130) // 120
/// ```
public struct SyncEpoch: Codable, Equatable, Sendable {
    public var epoch: String
    public var start: Int64

    public init(epoch: String, start: Int64) {
        self.epoch = epoch
        self.start = start
    }

    /// The counter up to which the history of a cursor (its `epoch` and
    /// `counter`) and the history that `epochs` lists are the same: the
    /// cursor's counter in the current epoch, or at most the start of the
    /// epoch that followed the cursor's; nil when `epochs` does not list
    /// the cursor's epoch (a history that went its own way).
    public static func sharedCounter(_ epochs: [SyncEpoch], epoch: String, counter: Int64) -> Int64? {
        guard let index = epochs.firstIndex(where: { $0.epoch == epoch }) else { return nil }
        let next = epochs.index(after: index)
        return next < epochs.endIndex ? min(counter, epochs[next].start) : counter
    }
}
