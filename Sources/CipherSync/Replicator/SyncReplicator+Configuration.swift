import CipherDB
import Foundation

extension SyncReplicator {
    /// How a replicator runs.
    ///
    /// ```swift
    /// var configuration = SyncReplicator.Configuration()
    /// configuration.maximumBackOff = .seconds(60)
    /// let replicator = SyncReplicator(client: client, configuration: configuration)
    /// ```
    public struct Configuration: Sendable {
        /// Whether ``SyncReplicator/start()`` keeps syncing (each local
        /// change pushed as it commits, each server change pulled as it
        /// comes) until ``SyncReplicator/stop()``, or syncs once.
        public var continuous: Bool
        /// How long each long-poll asks the server to hold a delta while
        /// there is nothing new, in seconds: under the server's limit of
        /// 60 and under the idle timeouts of common proxies.
        public var longPollSeconds: Int
        /// The longest back-off between tries: it starts at 1 s and doubles.
        public var maximumBackOff: Duration
        /// The longest wait a busy server's `Retry-After` gets; a longer one
        /// is cut to it.
        public var maximumRetryAfter: Duration
        /// How often the database file is read for another process's commit
        /// (`PRAGMA data_version`); the app's own commits are seen at once.
        public var fileCheckInterval: Duration
        /// An app's own rules, checked on the pending changes before each
        /// push, in a read of the database: an error refuses the sync before
        /// anything is sent (one that names its row,
        /// ``SyncEngine/SyncChangeRefusal``, is also told as
        /// ``SyncEvent/changeRefused(_:_:)``).
        public var checkBeforePush: (@Sendable (Database) throws -> Void)?
        /// How the back-off waits: `Task.sleep`, or in a test one that the
        /// test controls.
        public var sleep: @Sendable (Duration) async throws -> Void
        /// The time of ``SyncStatus/lastSyncedAt``: `Date()`, or in a
        /// test, the test's.
        public var now: @Sendable () -> Date
        /// A wall-clock jump longer than this over the monotonic clock is a
        /// sleep of the computer: the request under way, whose connection
        /// is likely dead, is abandoned, and the sync starts again at once.
        public var sleepThreshold: TimeInterval

        public init(continuous: Bool = true, longPollSeconds: Int = 50, maximumBackOff: Duration = .seconds(30),
                    maximumRetryAfter: Duration = .seconds(600), fileCheckInterval: Duration = .milliseconds(100),
                    checkBeforePush: (@Sendable (Database) throws -> Void)? = nil,
                    sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
                    now: @escaping @Sendable () -> Date = { Date() }, sleepThreshold: TimeInterval = 10) {
            self.continuous = continuous
            self.longPollSeconds = longPollSeconds
            self.maximumBackOff = maximumBackOff
            self.maximumRetryAfter = maximumRetryAfter
            self.fileCheckInterval = fileCheckInterval
            self.checkBeforePush = checkBeforePush
            self.sleep = sleep
            self.now = now
            self.sleepThreshold = sleepThreshold
        }
    }
}
