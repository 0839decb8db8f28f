import Hummingbird
import Prometheus
import SyncServerAuth

/// The server's Prometheus metrics (`GET /metrics`): requests by route and
/// status, their latency by route, the requests in progress, the
/// long-polls open and held so far, the reads of deltas, the store errors.
///
/// Label values are bounded: a route is the template the router matched
/// (`/v1/rows/{table}/{id}`, never the path a client sent; `unmatched` when
/// none did), a method one of a fixed list (else `other`), a status a
/// number. One registry per ``SyncServerAPI``, not a global one, so that
/// servers in one process (tests) count apart.
///
/// ```swift
/// metrics.longPollStarted()
/// defer { metrics.longPollEnded() }
/// ```
public final class ServerMetrics: Sendable {
    let registry = PrometheusCollectorRegistry()
    private let requestsInProgress: Gauge
    private let longPolls: Gauge
    private let longPollsHeld: Counter
    private let storeErrors: Counter
    private let cursorRefusals: Counter
    private let longPollWakes: Counter
    private let deltaReads: Counter

    /// The latency buckets: from 1 ms to a minute, the longest long-poll.
    static let latencyBuckets: [Duration] = [
        .milliseconds(1), .milliseconds(2.5), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
        .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2.5), .seconds(5), .seconds(10),
        .seconds(30), .seconds(60),
    ]

    /// The methods counted by name; any other is `other`.
    static let countedMethods: Set<HTTPRequest.Method> = [.get, .head, .post, .put, .delete, .patch, .options]

    static var requests: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "players_server", metricName: "requests", unitName: "total",
            helpText: "Requests answered, by route template, method and status.")
    }
    static var requestDuration: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "players_server", metricName: "request_duration", unitName: "seconds",
            helpText: "How long requests took to answer, by route template and method.")
    }
    static var inProgressRequests: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "players_server", metricName: "requests", unitName: "in_progress",
            helpText: "Requests received and not answered yet (long-polls included).")
    }
    static var openLongPolls: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "players_server", metricName: "long_polls", unitName: "open",
            helpText: "Long-polls (GET /v1/sync/rows?since=...&wait=...) waiting for a change now.")
    }
    static var heldLongPolls: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "players_server", metricName: "long_polls", unitName: "total",
            helpText: "Long-polls that waited for a change (they had none at once), since the server started.")
    }
    static var deltaReadCount: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "players_server", metricName: "delta_reads", unitName: "total",
            helpText: "Reads of a delta from the store (GET /v1/sync/rows?since=...); requests for the same delta at the same time share one.")
    }
    static var tokenRefusalCount: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "players_server", metricName: "token_refusals", unitName: "total",
            helpText: "Requests refused for their token under --auth jwt (401), by reason: missing, malformed, expired...")
    }
    static var longPollWakeCount: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "players_server", metricName: "long_poll_wakes", unitName: "total",
            helpText: "Held long-polls woken by a commit; under --auth jwt, only by a commit their user may see.")
    }
    static var cursorRefusalCount: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "players_server", metricName: "cursor_refusals", unitName: "total",
            helpText: "Deltas refused (410) under --auth jwt because their cursor was issued to another user.")
    }
    static var storeErrorCount: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "players_server", metricName: "store_errors", unitName: "total",
            helpText: "Store calls that failed other than by a client's mistake (database unreachable, closed, broken).")
    }

    public init() {
        requestsInProgress = registry.makeGauge(descriptor: Self.inProgressRequests)
        longPolls = registry.makeGauge(descriptor: Self.openLongPolls)
        longPollsHeld = registry.makeCounter(descriptor: Self.heldLongPolls)
        storeErrors = registry.makeCounter(descriptor: Self.storeErrorCount)
        cursorRefusals = registry.makeCounter(descriptor: Self.cursorRefusalCount)
        longPollWakes = registry.makeCounter(descriptor: Self.longPollWakeCount)
        deltaReads = registry.makeCounter(descriptor: Self.deltaReadCount)
    }

    /// A request begins: call ``requestEnded()`` exactly once when it is
    /// answered or fails (a `defer` right after).
    func requestStarted() {
        requestsInProgress.increment()
    }

    /// A request counted by ``requestStarted()`` has ended.
    func requestEnded() {
        requestsInProgress.decrement()
    }

    /// Counts a request answered with `status`, and its duration.
    func requestAnswered(route: String, method: HTTPRequest.Method, status: HTTPResponse.Status, duration: Duration) {
        let method = Self.countedMethods.contains(method) ? method.rawValue : "other"
        registry.makeCounter(
            descriptor: Self.requests, labels: [("route", route), ("method", method), ("status", String(status.code))]
        ).increment()
        registry.makeDurationHistogram(
            descriptor: Self.requestDuration, labels: [("route", route), ("method", method)], buckets: Self.latencyBuckets
        ).record(duration)
    }

    /// A long-poll begins to wait: call ``longPollEnded()`` exactly once
    /// when it answers, fails or is cancelled (a `defer` right after).
    public func longPollStarted() {
        longPolls.increment()
        longPollsHeld.increment()
    }

    /// A long-poll counted by ``longPollStarted()`` has ended.
    public func longPollEnded() {
        longPolls.decrement()
    }

    /// The store was asked for a delta (``SharedDeltaReads``).
    func deltaRead() {
        deltaReads.increment()
    }

    /// A request's token was refused, for `refusal`.
    func tokenRefused(_ refusal: TokenRefusal) {
        registry.makeCounter(descriptor: Self.tokenRefusalCount, labels: [("reason", refusal.reason)]).increment()
    }

    /// A commit woke a held long-poll.
    func longPollWoken() {
        longPollWakes.increment()
    }

    /// A delta's cursor was issued to another user than the request's.
    func cursorRefused() {
        cursorRefusals.increment()
    }

    /// A store call threw something other than a client's error.
    public func storeCallFailed() {
        storeErrors.increment()
    }

    /// Every metric, in Prometheus's text format (version 0.0.4).
    public var text: String {
        registry.emitToString()
    }
}
