import Foundation
import PlayersProtocol
import SyncServer
import SyncServerDatabase

/// The players store of a server with its own CipherDB database
/// (`players-server --database`, or in memory): a
/// ``ServerPlayersDatabase`` whose blocking calls run on
/// ``StoreThreads``, so that the callers only await.
///
/// ```swift
/// let store = EmbeddedPlayersStore(try ServerPlayersDatabase(DatabaseQueue()))
/// let page = try await store.snapshot(limit: 100, after: nil)
/// ```
public struct EmbeddedPlayersStore: PlayersStore {
    /// The database, for the calls that the HTTP layer does not make
    /// (tests, checks).
    public let database: ServerPlayersDatabase

    public init(_ database: ServerPlayersDatabase) {
        self.database = database
    }

    /// The database's: every store on one ``ServerPlayersDatabase`` wakes
    /// on the writes of the others.
    public var changes: StoreChangeNotifier { database.changes }

    public var history: ServerHistory { database.history }

    public func snapshot(limit: Int, after: UUID?) async throws -> SnapshotPage {
        try await StoreThreads.read { [database] in try database.snapshot(limit: limit, afterUUID: after) }
    }

    public func delta(since: Int64, limit: Int) async throws -> DeltaPage? {
        try await StoreThreads.read { [database] in try database.delta(since: since, limit: limit) }
    }

    public func player(_ uuid: UUID) async throws -> ServerPlayer? {
        try await StoreThreads.read { [database] in try database.player(uuid) }
    }

    public func update(_ uuid: UUID, name: String?, score: Int?, expectedVersion: Int64?) async throws -> PlayerUpdateOutcome {
        try await StoreThreads.write { [database] in
            try database.update(uuid, name: name, score: score, expectedVersion: expectedVersion)
        }
    }

    public func delete(_ uuid: UUID) async throws -> Bool {
        try await StoreThreads.write { [database] in try database.delete(uuid) }
    }

    public func applyChanges(_ batch: PlayersChangeBatch) async throws -> PlayersChangeResults {
        try await StoreThreads.write { [database] in try database.applyChanges(batch) }
    }

    public func purgeTombstones(olderThan retention: TimeInterval, now: Date) async throws {
        try await StoreThreads.write { [database] in try database.purgeTombstones(olderThan: retention, now: now) }
    }

    public func seed(_ count: Int, progress: @escaping @Sendable (Int) -> Void) async throws {
        try await StoreThreads.write { [database] in try database.seed(count, progress: progress) }
    }

    public func refresh() async throws -> Int64 {
        try await StoreThreads.write { [database] in
            try database.refresh()
            return try database.currentVersion()
        }
    }

    public func checkReachable() async throws {
        _ = try await StoreThreads.read { [database] in try database.currentVersion() }
    }

    public func close() async throws {
        try await StoreThreads.write { [database] in try database.close() }
    }
}
