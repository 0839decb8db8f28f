import Foundation
import NIOCore
import NIOEmbedded
import PlayersShared
import SyncSchema
import SyncServer
import SyncServerAuth
import SyncServerEmbedded
import SyncServerHTTP
import SyncServerPostgres
import TestSupport

/// A live `SyncServerAPI` on loopback, on a store of a new ``StoreSandbox``:
/// the fixture of the API suites, which run every case on both stores.
/// Its long-polls wait on a clock that stands still until the test
/// advances it (``advanceLongPollClock(by:)``): a long-poll that answers
/// was woken by a change, a release or its cursor, never by its wait's end
/// on a slow machine.
public struct APITestServer: Sendable {
    /// The players of `engine`, to arrange and check them (when it serves
    /// Players' table).
    public let store: PlayersTestStore
    /// The sync engine's store of the declared tables, on the sandbox's
    /// database, which the API serves.
    public let engine: any SyncRowStore
    public let sandbox: StoreSandbox
    public let client: APIClient
    let longPollClock: NIOAsyncTestingEventLoop

    /// Runs `body` against a live server on a new sandbox of `kind`.
    public static func with(
        _ kind: StoreKind,
        token: String? = nil,
        tokenVerifier: TokenVerifier? = nil,
        tombstoneRetention: TimeInterval = 30 * 86_400,
        demo: Bool = false,
        schema: SyncSchema = PlayersSchema.schema,
        _ body: @Sendable (APITestServer) async throws -> Void
    ) async throws {
        try await StoreSandbox.with(kind) { sandbox in
            let engine = try await sandbox.makeSyncStore(schema: schema)
            let store = PlayersTestStore(engine)
            let longPollClock = NIOAsyncTestingEventLoop()
            var configuration = ServerConfiguration()
            configuration.token = token
            configuration.tokenVerifier = tokenVerifier
            configuration.tombstoneRetention = tombstoneRetention
            configuration.defaultPageSize = 100
            configuration.servesDemoRefresh = demo
            // `GET /ready` checks the store within this time: a store that
            // answers must be seen ready on a loaded machine too.
            configuration.readinessTimeout = TimeInterval(hangGuard.components.seconds)
            let api = SyncServerAPI(engine: engine, configuration: configuration, longPollTimers: longPollClock)
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
