import Foundation
import PlayersProtocol
import NIOCore
import NIOEmbedded
import PlayersServerHTTP
import PlayersServerStore
import SyncSchema
import SyncServer
import SyncServerDatabase
import SyncServerPostgres
import TestSupport

/// A live `PlayersAPI` on loopback, on a store of a new ``StoreSandbox``:
/// the fixture of the API suites, which run every case on both stores.
/// Its long-polls wait on a clock that stands still until the test
/// advances it (``advanceLongPollClock(by:)``): a long-poll that answers
/// was woken by a change, a release or its cursor, never by its wait's end
/// on a slow machine.
public struct APITestServer: Sendable {
    /// The store the API serves, to arrange and check its players.
    public let store: any PlayersStore
    /// The sync engine's store of Players' table and `engine`'s, on the
    /// sandbox's database: `store`'s players are its rows.
    public let engine: any SyncRowStore
    public let sandbox: StoreSandbox
    public let client: APIClient
    let longPollClock: NIOAsyncTestingEventLoop

    /// Runs `body` against a live server on a new sandbox of `kind`.
    public static func with(
        _ kind: StoreKind,
        token: String? = nil,
        tombstoneRetention: TimeInterval = 30 * 86_400,
        demo: Bool = false,
        engine schema: SyncSchema? = nil,
        _ body: @Sendable (APITestServer) async throws -> Void
    ) async throws {
        try await StoreSandbox.with(kind) { sandbox in
            let engine = try await sandbox.makeSyncStore(schema: schema ?? PlayersSchema.schema)
            let store = EnginePlayersStore(engine)
            let longPollClock = NIOAsyncTestingEventLoop()
            var configuration = ServerConfiguration()
            configuration.token = token
            configuration.tombstoneRetention = tombstoneRetention
            configuration.defaultPageSize = 100
            configuration.servesDemoRefresh = demo
            // `GET /ready` checks the store within this time: a store that
            // answers must be seen ready on a loaded machine too.
            configuration.readinessTimeout = TimeInterval(hangGuard.components.seconds)
            let api = PlayersAPI(engine: engine, configuration: configuration, longPollTimers: longPollClock)
            do {
                try await APIClient.withServer(api.makeRouter()) { client in
                    // Before the server shuts down, as players-server's
                    // LongPollRelease does: a long-poll that its clock or a
                    // change never ends (a test that failed meanwhile) would
                    // hold the shutdown, and the test, for ever.
                    defer { _ = engine.changes.releaseAll() }
                    try await body(APITestServer(store: store, engine: engine, sandbox: sandbox, client: client, longPollClock: longPollClock))
                }
            } catch {
                try? await engine.close()
                await longPollClock.shutdownGracefully()
                throw error
            }
            try await engine.close()
            await longPollClock.shutdownGracefully()
        }
    }

    /// Moves the long-polls' clock forward: the waits whose end it
    /// reaches end.
    public func advanceLongPollClock(by amount: TimeAmount) async {
        await longPollClock.advanceTime(by: amount)
    }
}
