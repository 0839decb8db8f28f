import SyncEngine
import SyncSchema

/// What one sync of the engine did (``CipherSync/SyncClient/pushThenPull(full:dryRun:)``):
/// the keys exchanged, the push of the outbox, then the pull.
public struct SyncPushPullReport: Equatable, Sendable {
    public var push: SyncPushReport
    public var pull: SyncReport
    /// What the sync did with the key directory, for end-to-end tables.
    public var keys: SyncKeyExchangeReport

    /// Every row the sync refused, kept as it was: those that waited for
    /// a key and were refused once it came, those of the push's answers,
    /// then those of the pull.
    public var refusedRows: [SyncRefusedRow] {
        keys.refusedRows + push.refusedRows + pull.refusedRows
    }

    public init(push: SyncPushReport, pull: SyncReport, keys: SyncKeyExchangeReport = SyncKeyExchangeReport()) {
        self.push = push
        self.pull = pull
        self.keys = keys
    }
}
