import Foundation
import Hummingbird
import HummingbirdTesting
import PlayersServerHTTP
import PlayersServerStore

/// A live `PlayersAPI` on loopback, on a store of a new ``StoreSandbox``:
/// the fixture of the API suites, which run every case on both stores.
public struct APITestServer: Sendable {
    /// The store the API serves, to arrange and check its players.
    public let store: any PlayersStore
    public let sandbox: StoreSandbox
    public let client: any TestClientProtocol

    /// Runs `body` against a live server on a new sandbox of `kind`.
    public static func with(
        _ kind: StoreKind,
        token: String? = nil,
        tombstoneRetention: TimeInterval = 30 * 86_400,
        demo: Bool = false,
        _ body: @Sendable (APITestServer) async throws -> Void
    ) async throws {
        try await StoreSandbox.with(kind) { sandbox in
            let store = try await sandbox.makeStore()
            var configuration = ServerConfiguration()
            configuration.token = token
            configuration.tombstoneRetention = tombstoneRetention
            configuration.defaultPageSize = 100
            configuration.servesDemoRefresh = demo
            let app = Application(router: PlayersAPI(store: store, configuration: configuration).makeRouter())
            do {
                try await app.test(.live) { client in
                    try await body(APITestServer(store: store, sandbox: sandbox, client: client))
                }
            } catch {
                try? await store.close()
                throw error
            }
            try await store.close()
        }
    }
}
