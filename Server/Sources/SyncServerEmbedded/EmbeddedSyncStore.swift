import Foundation
import SyncSchema
import SyncServer
import Synchronization

/// The engine's store of a server with its own CipherDB database: a
/// ``ServerSyncDatabase`` whose blocking calls run on ``StoreThreads``, so
/// that the callers only await.
///
/// ```swift
/// let store = EmbeddedSyncStore(try ServerSyncDatabase(DatabasePool(path: path, configuration: config), schema: schema))
/// let results = try await store.applyChanges(batch.changes, at: Date())
/// ```
public final class EmbeddedSyncStore: SyncRowStore {
    public let database: ServerSyncDatabase
    private let isClosed = Mutex(false)

    public init(_ database: ServerSyncDatabase) {
        self.database = database
    }

    public var schema: SyncSchema { database.schema }
    public var history: ServerHistory { database.history }
    public var changes: StoreChangeNotifier { database.changes }

    public func apply(_ write: SyncWrite, at date: Date) async throws -> [SyncPushResult]? {
        try checkOpen()
        return try await StoreThreads.write { [database] in try database.apply(write, at: date) }
    }

    public func changes(after version: Int64, limit: Int, tables filter: SyncTableFilter?, for user: SyncUser?) async throws -> SyncStoredPage? {
        try checkOpen()
        return try await StoreThreads.read { [database] in try database.changes(after: version, limit: limit, tables: filter, for: user) }
    }

    public func snapshot(after key: SyncRowKey?, limit: Int, tables filter: SyncTableFilter?, for user: SyncUser?) async throws -> SyncStoredPage {
        try checkOpen()
        return try await StoreThreads.read { [database] in try database.snapshot(after: key, limit: limit, tables: filter, for: user) }
    }

    public func rights(of user: SyncUser) async throws -> SyncRights {
        try checkOpen()
        return try await StoreThreads.read { [database] in try database.rights(of: user) }
    }

    public func row(_ key: SyncRowKey) async throws -> SyncStoredRow? {
        try checkOpen()
        return try await StoreThreads.read { [database] in try database.row(key) }
    }

    public func publish(_ key: SyncIdentityKey) async throws -> SyncKeyPublication {
        try checkOpen()
        return try await StoreThreads.write { [database] in try database.publish(key) }
    }

    public func identityKeys(of users: [String]) async throws -> [SyncIdentityKey] {
        try checkOpen()
        return try await StoreThreads.read { [database] in try database.identityKeys(of: users) }
    }

    public func store(_ keys: [SyncWrappedKey], by user: SyncUser) async throws -> SyncWrappedKeysOutcome {
        try checkOpen()
        return try await StoreThreads.write { [database] in try database.store(keys, by: user) }
    }

    public func wrappedKeys(for user: String) async throws -> [SyncWrappedKey] {
        try checkOpen()
        return try await StoreThreads.read { [database] in try database.wrappedKeys(for: user) }
    }

    public func currentVersion() async throws -> Int64 {
        try checkOpen()
        return try await StoreThreads.read { [database] in try database.currentVersion() }
    }

    public func purgeTombstones(olderThan retention: TimeInterval, now: Date) async throws {
        try checkOpen()
        try await StoreThreads.write { [database] in try database.purgeTombstones(olderThan: retention, now: now) }
    }

    /// Writes everything out and closes the database: later calls throw.
    public func close() async throws {
        let wasClosed = isClosed.withLock { closed in
            defer { closed = true }
            return closed
        }
        guard !wasClosed else { return }
        try await StoreThreads.write { [database] in try database.close() }
    }

    private func checkOpen() throws {
        if isClosed.withLock({ $0 }) { throw SyncStoreError.closed }
    }
}
