import Foundation
import Hummingbird
import NIOCore
import NIOPosix
import PlayersOnServer
import SyncServer

/// The sync engine's HTTP API (`players-server`), version 1 (Docs/SyncProtocol.md):
/// one handler per endpoint, each of which checks the request, awaits the
/// store, and answers through the context's encoder.
public struct SyncServerAPI: Sendable {
    /// The sync engine's store of the server's tables: Players', or those
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
    /// The reads of deltas that requests asking for the same one share.
    let sharedDeltaReads: SharedDeltaReads<SharedDelta>
    /// The demo's random changes (`--demo`), on a server of Players' table.
    let demo: PlayersDemo?

    /// The API of `engine`'s declared tables.
    public init(engine: any SyncRowStore, configuration: ServerConfiguration) {
        self.init(engine: engine, configuration: configuration, longPollTimers: MultiThreadedEventLoopGroup.singleton)
    }

    /// An API whose long-polls wait on `longPollTimers`' clock.
    package init(engine: any SyncRowStore, configuration: ServerConfiguration, longPollTimers: any EventLoopGroup) {
        self.engine = engine
        self.configuration = configuration
        self.longPollTimers = longPollTimers
        let metrics = ServerMetrics()
        self.metrics = metrics
        demo = configuration.servesDemoRefresh ? PlayersDemo(engine) : nil
        sharedDeltaReads = SharedDeltaReads(changes: engine.changes, onRead: { metrics.deltaRead() }) { since, limit, tables, user in
            try await SharedDelta(engine, since: since, limit: limit, tables: tables, for: user)
        }
    }

    /// The router, with request ids, logging and metrics, the `Host` check,
    /// authentication and the cross-site check of changes. `HEAD` answers
    /// as `GET` on every path that takes GET, without the body.
    public func makeRouter() -> Router<SyncRequestContext> {
        let router = Router(context: SyncRequestContext.self, options: .autoGenerateHeadEndpoints)
        router.add(middleware: RequestLogMiddleware(metrics: metrics))
        router.add(middleware: JSONErrorMiddleware(routes: routeMethods))
        router.add(middleware: AllowedHostMiddleware(configuration: configuration))
        // For load balancers and probes, without the token.
        router.get("/health", use: health)
        router.get("/healthz", use: health)
        router.get("/ready", use: ready)
        // It reveals the traffic: with a token, only to its holders.
        let authentication = AuthenticationMiddleware(configuration: configuration, metrics: metrics)
        router.group("/metrics").add(middleware: authentication).get(use: metricsText)
        let v1 = router.group("/v1").add(middleware: authentication)
        let v1Changes = v1.group().add(middleware: ChangeRequestMiddleware(requiresBearerToken: configuration.requiresBearerToken))
        for path in Self.earlierProtocolPaths {
            for method in Self.earlierProtocolMethods {
                v1.on(RouterPath(path), method: method, use: answerEarlierProtocol)
            }
        }
        v1.get("/sync/rows", use: listSyncRows)
        v1.get("/rows/:table/:id", use: getRow)
        v1Changes.post("/rows/:table", use: createRow)
        v1Changes.put("/rows/:table/:id", use: updateRow)
        v1Changes.delete("/rows/:table/:id", use: deleteRow)
        v1Changes.post("/sync/changes", use: applySyncChanges)
        v1.get("/keys/identity", use: listIdentityKeys)
        v1Changes.put("/keys/identity", use: publishIdentityKey)
        v1.get("/keys/wrapped", use: listWrappedKeys)
        v1Changes.post("/keys/wrapped", use: storeWrappedKeys)
        if demo != nil {
            // Outside the versioned API: random changes are for the demo only.
            router.group("/demo")
                .add(middleware: authentication)
                .add(middleware: ChangeRequestMiddleware(requiresBearerToken: configuration.requiresBearerToken))
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
        for path in Self.earlierProtocolPaths {
            routes.add("/v1" + path, Self.earlierProtocolMethods)
        }
        routes.add(Self.syncRowsPath, [.get])
        routes.add("/v1/sync/changes", [.post])
        routes.add(Self.rowsPath, [.post])
        routes.add(Self.rowPath, [.get, .put, .delete])
        routes.add(Self.identityKeysPath, [.get, .put])
        routes.add(Self.wrappedKeysPath, [.get, .post])
        if demo != nil {
            routes.add("/demo/refresh", [.post])
        }
        return routes
    }
}
