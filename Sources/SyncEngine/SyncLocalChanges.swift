import CipherDB
import Foundation

/// Tells when a database holds a local change that no push has taken yet
/// (an entry of the outbox not sent), whoever made it: the app in this
/// process, or another process on the same file. A connection of its own
/// reads `PRAGMA data_version`, which moves when any other connection
/// commits, and looks at the outbox only then: no row is read while
/// nothing is written.
///
/// A watching sync ends the long-poll it holds when ``next(pollingEvery:)``
/// returns (``CipherSync/SyncClient/localChangeToPush``), and pushes at
/// once, where it waited for the server's answer before.
///
/// ```swift
/// let localChanges = try SyncLocalChanges(databaseOf: dbQueue)
/// try await localChanges.next()   // a change waits: push it
/// ```
public struct SyncLocalChanges: Sendable {
    /// A read-only connection of its own: `data_version` is a
    /// connection's count of the others' commits.
    private let reader: DatabaseQueue

    /// Opens a connection of its own on the database of `writer`, with
    /// its configuration (its key).
    public init(databaseOf writer: some DatabaseReader) throws {
        var configuration = writer.configuration
        configuration.readonly = true
        reader = try DatabaseQueue(path: writer.path, configuration: configuration)
    }

    /// Returns once the outbox holds a change not sent yet: at once when
    /// it holds one already. Reads `data_version` every `interval` until
    /// then; throws `CancellationError` when its task is cancelled.
    public func next(pollingEvery interval: Duration = .milliseconds(100)) async throws {
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
            try await Task.sleep(for: interval)
        }
    }

    /// Closes the connection.
    public func close() throws {
        try reader.close()
    }
}
