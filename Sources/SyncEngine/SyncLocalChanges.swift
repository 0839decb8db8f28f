import CipherDB
import Foundation
import Synchronization

/// Tells when a database holds a local change that no push has taken yet
/// (an entry of the outbox not sent), whoever made it. A commit of the
/// app's own writer that touches the outbox is seen at once, through the
/// commit itself (a ``CipherDB/DatabaseRegionObservation``); a commit of
/// another process, through the file: a read-only connection of its own
/// reads `PRAGMA data_version`, which moves when any other connection
/// commits, every `pollingInterval`. The outbox is read only when one of
/// them moved: no row is read while nothing is written.
///
/// A watching sync ends the long-poll it holds when ``next()`` returns
/// (``CipherSync/SyncClient/localChangeToPush``), and pushes at once,
/// where it waited for the server's answer before.
///
/// ```swift
/// let localChanges = try SyncLocalChanges(databaseOf: dbQueue)
/// try await localChanges.next()   // a change waits: push it
/// ```
public struct SyncLocalChanges: Sendable {
    /// A read-only connection of its own: `data_version` is a
    /// connection's count of the others' commits.
    private let reader: DatabaseQueue
    /// Given after each commit of `writer` that touches the outbox.
    private let commits = SyncPulse()
    private let commitObserver: AnyDatabaseCancellable
    private let pollingInterval: Duration

    /// Opens a connection of its own on the database of `writer`, with
    /// its configuration (its key), and observes the commits of `writer`.
    public init(databaseOf writer: some DatabaseWriter, pollingEvery pollingInterval: Duration = .milliseconds(100)) throws {
        var configuration = writer.configuration
        configuration.readonly = true
        reader = try DatabaseQueue(path: writer.path, configuration: configuration)
        self.pollingInterval = pollingInterval
        let (commits, failure) = (commits, ObservationFailure())
        commitObserver = DatabaseRegionObservation(tracking: Table(SyncEngine.outboxTable)).start(in: writer) { error in
            failure.error.withLock { $0 = error }
        } onChange: { _ in
            commits.signal()
        }
        // Registered within `start`: a table that cannot be observed fails here.
        if let error = failure.error.withLock({ $0 }) {
            commitObserver.cancel()
            try? reader.close()
            throw error
        }
    }

    /// Returns once the outbox holds a change not sent yet: at once when
    /// it holds one already. Throws `CancellationError` when its task is
    /// cancelled.
    public func next() async throws {
        var seen: Int?
        while true {
            try Task.checkCancellation()
            let (version, waiting) = try await reader.read { [seen] db -> (Int, Bool) in
                let version = try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0
                guard version != seen else { return (version, false) }
                return (version, try Bool.fetchOne(db, sql: """
                    SELECT EXISTS (SELECT 1 FROM \(SyncEngine.outboxTable) WHERE sent_at IS NULL)
                    """) ?? false)
            }
            if waiting { return }
            seen = version
            await commits.wait(upTo: pollingInterval)
        }
    }

    /// Stops observing and closes the connection.
    public func close() throws {
        commitObserver.cancel()
        try reader.close()
    }
}

/// The error of an observation's start, if any. `Sendable` through its mutex.
private final class ObservationFailure: Sendable {
    let error = Mutex<(any Error)?>(nil)
}
