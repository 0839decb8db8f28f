import Foundation
import PlayersOnServer
import PlayersShared
import PostgresClient
import ServerTestSupport
import SyncServerPostgres
import TestSupport
import Testing

/// The URL's `sslmode`, with libpq's meanings, against the test cluster,
/// which offers no TLS. Each case on a database of its own, as every
/// other store of the tests: three stores migrating the cluster's own
/// database at once, beside the servers that other tests start on it,
/// twice waited 60 s on one another under load.
@Suite struct PostgresURLTests {
    /// The sandbox's URL with `sslmode` set to `mode`.
    func sandboxURL(_ sandbox: StoreSandbox, sslMode mode: String) throws -> PostgresURL {
        try PostgresURL(try sandbox.postgresURLString() + "?sslmode=\(mode)")
    }

    @Test(arguments: ["disable", "allow", "prefer"])
    func modesThatAllowPlainConnectionsConnectToAServerWithoutTLS(_ mode: String) async throws {
        try await StoreSandbox.with(.postgres) { sandbox in
            let store = PlayersTestStore(try await PostgresSyncStore(url: try sandboxURL(sandbox, sslMode: mode), schema: PlayersSchema.schema, connectTimeout: hangGuard, logger: postgresTestLogger))
            _ = try await store.allPlayers()
            try await store.close()
        }
    }

    @Test(arguments: ["require", "verify-ca", "verify-full"])
    func modesThatRequireTLSRefuseAServerWithoutIt(_ mode: String) async throws {
        try await StoreSandbox.with(.postgres) { sandbox in
            await #expect(throws: (any Error).self) {
                let store = PlayersTestStore(try await PostgresSyncStore(url: try sandboxURL(sandbox, sslMode: mode), schema: PlayersSchema.schema, connectTimeout: hangGuard, logger: postgresTestLogger))
                try await store.close()
            }
        }
    }

    @Test func anUnknownModeIsRefusedWithoutRepeatingTheURL() throws {
        let error = #expect(throws: PostgresStoreError.self) {
            try PostgresURL("postgres://players:hunter2@localhost/players?sslmode=verify_full")
        }
        #expect(error?.description.contains("sslmode") == true)
        #expect(error?.description.contains("hunter2") == false)
    }

    @Test(arguments: ["mysql://players@localhost/players", "postgres:///players", "postgres://localhost/players"])
    func aURLWithoutSchemeHostOrUserIsRefused(_ url: String) {
        #expect(throws: PostgresStoreError.self) { try PostgresURL(url) }
    }
}
