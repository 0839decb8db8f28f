import Hummingbird
import Logging
import SyncServerHTTP
import ServiceLifecycle
import TestSupport

/// A players API served on loopback in the test's own process, as
/// `players-server` serves it: the real router, the real HTTP server.
public enum LiveServer {
    /// Serves `router` on a free loopback port, logging at `warning` (the
    /// tests read no request line), and runs `body` with the port; then
    /// shuts the server down, whether `body` succeeded or not.
    public static func serve<Value: Sendable>(
        _ router: Router<SyncRequestContext>, _ body: @Sendable (Int) async throws -> Value
    ) async throws -> Value {
        var logger = Logger(label: "players-server-test")
        logger.logLevel = .warning
        let (ports, portContinuation) = AsyncStream<Int>.makeStream()
        let app = Application(
            router: router,
            configuration: ApplicationConfiguration(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in portContinuation.yield(channel.localAddress?.port ?? 0) },
            logger: logger)
        let services = ServiceGroup(configuration: .init(services: [app], logger: logger))
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                // A server that fails to start ends the wait for its port.
                defer { portContinuation.finish() }
                try await services.run()
            }
            guard let port = await ports.first(where: { _ in true }) else {
                throw TestFailure("the players API did not start on a loopback port")
            }
            do {
                let value = try await body(port)
                await services.triggerGracefulShutdown()
                return value
            } catch {
                await services.triggerGracefulShutdown()
                throw error
            }
        }
    }
}
