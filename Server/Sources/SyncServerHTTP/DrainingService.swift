import ServiceLifecycle

/// A service that, when the graceful shutdown of its group begins, marks
/// the server as draining (`GET /ready` answers 503), then holds the
/// shutdown for `delay` while the server still answers, so that a load
/// balancer polling `/ready` stops sending before the listener closes.
///
/// Listed after the application in its service group: the group shuts
/// services down in reverse order, so this one first.
///
/// ```swift
/// let group = ServiceGroup(configuration: .init(
///     services: [app, DrainingService(readiness: api.readiness, delay: .seconds(5))],
///     gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
/// ```
public struct DrainingService: Service {
    let readiness: ServerReadiness
    let delay: Duration

    public init(readiness: ServerReadiness, delay: Duration) {
        self.readiness = readiness
        self.delay = delay
    }

    public func run() async throws {
        // Returns when the graceful shutdown begins, or throws when the
        // group is cancelled (then there is nothing to drain).
        try await gracefulShutdown()
        readiness.beginDraining()
        // Cancelled with the group: the shutdown goes on at once.
        try? await Task.sleep(for: delay)
    }
}
