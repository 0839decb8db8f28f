import Foundation
import ServerTestSupport
import SyncSchema
import SyncServer
import SyncServerDatabase
import SyncServerPostgres
import TestSupport

/// One of the engine's stores, opened on a sandbox, with the calls the
/// cases make: each case runs on both.
enum TestSyncStore {
    case embedded(ServerSyncDatabase)
    case postgres(PostgresSyncStore)

    /// Another store on the sandbox's rows (another connection, or pool).
    static func open(_ sandbox: StoreSandbox, schema: SyncSchema = .testNotes) async throws -> TestSyncStore {
        switch sandbox.kind {
        case .embedded: .embedded(try ServerSyncDatabase(try sandbox.embeddedPool(), schema: schema))
        case .postgres: .postgres(try await PostgresSyncStore(url: try sandbox.postgresURL(), schema: schema, connectTimeout: hangGuard,
                                                            logger: postgresTestLogger))
        }
    }

    /// Runs `body` with a store on a new sandbox of `kind`.
    static func with(_ kind: StoreKind, _ body: (TestSyncStore, StoreSandbox) async throws -> Void) async throws {
        try await StoreSandbox.with(kind) { sandbox in
            let store = try await open(sandbox)
            do {
                try await body(store, sandbox)
            } catch {
                await store.close()
                throw error
            }
            await store.close()
        }
    }

    func close() async {
        if case .postgres(let store) = self { await store.close() }
    }

    func applyChanges(_ changes: [SyncChange], at date: Date = Date()) async throws -> [SyncPushResult] {
        switch self {
        case .embedded(let database): try database.applyChanges(changes, at: date)
        case .postgres(let store): try await store.applyChanges(changes, at: date)
        }
    }

    func row(_ table: String, _ id: UUID) async throws -> SyncStoredRow? {
        let key = SyncRowKey(table: table, id: id)
        return switch self {
        case .embedded(let database): try database.row(key)
        case .postgres(let store): try await store.row(key)
        }
    }

    func currentVersion() async throws -> Int64 {
        switch self {
        case .embedded(let database): try database.currentVersion()
        case .postgres(let store): try await store.currentVersion()
        }
    }

    func changes(after version: Int64, limit: Int) async throws -> (rows: [SyncStoredRow], counter: Int64)? {
        switch self {
        case .embedded(let database): try database.changes(after: version, limit: limit)
        case .postgres(let store): try await store.changes(after: version, limit: limit)
        }
    }

    func snapshot(after key: SyncRowKey?, limit: Int) async throws -> (rows: [SyncStoredRow], counter: Int64) {
        switch self {
        case .embedded(let database): try database.snapshot(after: key, limit: limit)
        case .postgres(let store): try await store.snapshot(after: key, limit: limit)
        }
    }

    func purgeTombstones(olderThan retention: TimeInterval, now: Date) async throws {
        switch self {
        case .embedded(let database): try database.purgeTombstones(olderThan: retention, now: now)
        case .postgres(let store): try await store.purgeTombstones(olderThan: retention, now: now)
        }
    }
}
