import Foundation
import PlayersOnServer
import ServerTestSupport
import Testing

/// `checkReachable()`, the check behind `GET /ready`, on both stores.
@Suite struct StoreReachabilityTests {
    @Test(arguments: StoreKind.allCases)
    func anOpenStoreIsReachableAndAClosedOneIsNot(_ kind: StoreKind) async throws {
        try await StoreSandbox.with(kind) { sandbox in
            let store = try await sandbox.makeStore()
            _ = try await store.currentVersion()
            try await store.close()
            await #expect(throws: (any Error).self) { _ = try await store.currentVersion() }
        }
    }

    @Test func aPostgreSQLDatabaseThatRefusesConnectionsIsUnreachable() async throws {
        try await StoreSandbox.with(.postgres) { sandbox in
            // The schema is made first, within the hang guard: a loaded
            // machine may take long to run the migrations.
            try await sandbox.makeStore().close()
            // The check fails once the store gives up connecting: 30 s, not
            // the hang guard, since no machine makes the database reachable.
            let store = try await sandbox.makeStore(connectTimeout: .seconds(30))
            _ = try await store.currentVersion()
            try await sandbox.refuseConnections()
            await #expect(throws: (any Error).self) { _ = try await store.currentVersion() }
            try await store.close()
        }
    }
}
