import Foundation
import Hummingbird
import NIOCore
import NIOPosix
import PlayersServerStore
import SyncServer

/// The HTTP API of the players server, version 1 (Docs/SyncProtocol.md):
/// one handler per endpoint, each of which checks the request, awaits the
/// store, and answers through the context's encoder.
public struct PlayersAPI: Sendable {
    /// The players of `/v1/players` and `/v1/changes`: the rows of the
    /// engine's `player` table.
    let store: any PlayersStore
    /// The sync engine's store of the server's tables: Players' and those
    /// of its declarations (`--schema`).
    let engine: any SyncRowStore
    let configuration: ServerConfiguration
    /// When tombstones were last purged (one store for every endpoint).
    let lastPurge = PurgeClock()
    /// What `GET /metrics` shows.
    public let metrics: ServerMetrics
    /// Whether the graceful shutdown has begun (`GET /ready` answers 503).
    public let readiness = ServerReadiness()
    /// The clock and timers of the long-polls' waits: the real ones, or in
    /// tests a loop whose time moves only when the test advances it.
    let longPollTimers: any EventLoopGroup
    /// The reads of deltas that requests asking for the same one share:
    /// the players' and the engine's.
    let sharedDeltaReads: SharedDeltaReads<SharedDelta>
    let sharedSyncReads: SharedDeltaReads<SharedSyncDelta>

    /// The API of `engine`, whose declaration has Players' table
    /// (`PlayersSchema.player`).
    public init(engine: any SyncRowStore, configuration: ServerConfiguration) {
        self.init(engine: engine, configuration: configuration, longPollTimers: MultiThreadedEventLoopGroup.singleton)
    }

    /// An API whose long-polls wait on `longPollTimers`' clock.
    package init(engine: any SyncRowStore, configuration: ServerConfiguration, longPollTimers: any EventLoopGroup) {
        let store = EnginePlayersStore(engine)
        self.store = store
        self.engine = engine
        self.configuration = configuration
        self.longPollTimers = longPollTimers
        let metrics = ServerMetrics()
        self.metrics = metrics
        sharedDeltaReads = SharedDeltaReads(changes: engine.changes, onRead: { metrics.deltaRead() }) { since, limit, _ in
            try await store.delta(since: since, limit: limit).map { page in
                SharedDelta(page: page, answer: try PlayersPage(page, since: since, limit: limit, history: store.history))
            }
        }
        sharedSyncReads = SharedDeltaReads(changes: engine.changes, onRead: { metrics.syncDeltaRead() }) { since, limit, tables in
            try await SharedSyncDelta(engine, since: since, limit: limit, tables: tables)
        }
    }

    /// The router, with request ids, logging and metrics, the `Host` check,
    /// authentication and the cross-site check of changes. `HEAD` answers
    /// as `GET` on every path that takes GET, without the body.
    public func makeRouter() -> Router<PlayersRequestContext> {
        let router = Router(context: PlayersRequestContext.self, options: .autoGenerateHeadEndpoints)
        router.add(middleware: RequestLogMiddleware(metrics: metrics))
        router.add(middleware: JSONErrorMiddleware(routes: routeMethods))
        router.add(middleware: AllowedHostMiddleware(configuration: configuration))
        // For load balancers and probes, without the token.
        router.get("/health", use: health)
        router.get("/healthz", use: health)
        router.get("/ready", use: ready)
        // It reveals the traffic: with a token, only to its holders.
        router.group("/metrics").add(middleware: BearerTokenMiddleware(token: configuration.token)).get(use: metricsText)
        let v1 = router.group("/v1").add(middleware: BearerTokenMiddleware(token: configuration.token))
        let v1Changes = v1.group().add(middleware: ChangeRequestMiddleware(token: configuration.token))
        v1.get("/players", use: listPlayers)
        v1.get("/players/:uuid", use: getPlayer)
        v1Changes.post("/players", use: createPlayer)
        v1Changes.put("/players/:uuid", use: updatePlayer)
        v1Changes.delete("/players/:uuid", use: deletePlayer)
        v1Changes.post("/changes", use: applyChanges)
        v1.get("/sync/rows", use: listSyncRows)
        v1.get("/rows/:table/:id", use: getRow)
        v1Changes.post("/rows/:table", use: createRow)
        v1Changes.put("/rows/:table/:id", use: updateRow)
        v1Changes.delete("/rows/:table/:id", use: deleteRow)
        v1Changes.post("/sync/changes", use: applySyncChanges)
        if configuration.servesDemoRefresh {
            // Outside the versioned API: random changes are for the demo only.
            router.group("/demo")
                .add(middleware: BearerTokenMiddleware(token: configuration.token))
                .add(middleware: ChangeRequestMiddleware(token: configuration.token))
                .post("/refresh", use: refreshDemo)
        }
        return router
    }

    /// The methods of each path that ``makeRouter()`` serves: another
    /// method gets 405.
    var routeMethods: RouteMethods {
        var routes = RouteMethods()
        for path in ["/health", "/healthz", "/ready", "/metrics"] {
            routes.add(path, [.get])
        }
        routes.add("/v1/players", [.get, .post])
        routes.add("/v1/players/:uuid", [.get, .put, .delete])
        routes.add("/v1/changes", [.post])
        routes.add(Self.syncRowsPath, [.get])
        routes.add("/v1/sync/changes", [.post])
        routes.add(Self.rowsPath, [.post])
        routes.add(Self.rowPath, [.get, .put, .delete])
        if configuration.servesDemoRefresh {
            routes.add("/demo/refresh", [.post])
        }
        return routes
    }
}
