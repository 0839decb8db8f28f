import Foundation
import ServerTestSupport
import SyncSchema
import SyncServer
import SyncServerEmbedded
import SyncServerPostgres
import TestSupport

/// The engine's stores under test: each case runs on both.
enum TestSyncStore {
    /// Another store on the sandbox's rows (another pool).
    static func open(_ sandbox: StoreSandbox, schema: SyncSchema = .testNotes) async throws -> any SyncRowStore {
        switch sandbox.kind {
        case .embedded: EmbeddedSyncStore(try ServerSyncDatabase(try sandbox.embeddedPool(), schema: schema))
        case .postgres: try await PostgresSyncStore(url: try sandbox.postgresURL(), schema: schema, connectTimeout: hangGuard,
                                                    logger: postgresTestLogger)
        }
    }

    /// Runs `body` with a store of `schema` on a new sandbox of `kind`,
    /// closed afterwards.
    static func with(_ kind: StoreKind, schema: SyncSchema = .testNotes,
                     _ body: (any SyncRowStore, StoreSandbox) async throws -> Void) async throws {
        try await StoreSandbox.with(kind) { sandbox in
            let store = try await open(sandbox, schema: schema)
            do {
                try await body(store, sandbox)
            } catch {
                try? await store.close()
                throw error
            }
            try await store.close()
        }
    }
}

extension SyncRowStore {
    func applyChanges(_ changes: [SyncChange]) async throws -> [SyncPushResult] {
        try await applyChanges(changes, at: Date())
    }

    func row(_ table: String, _ id: UUID) async throws -> SyncStoredRow? {
        try await row(SyncRowKey(table: table, id: id))
    }
}
