import SyncEngine

/// What one sync of the engine did (``CipherSync/SyncClient/pushThenPull(full:dryRun:)``):
/// the push of the outbox, then the pull.
public struct SyncPushPullReport: Equatable, Sendable {
    public var push: SyncPushReport
    public var pull: SyncReport

    public init(push: SyncPushReport, pull: SyncReport) {
        self.push = push
        self.pull = pull
    }
}
