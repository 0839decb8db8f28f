import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import PlayersServerHTTP
import ServiceLifecycle
import TestSupport

/// One keep-alive connection to a players API served live in the test's
/// own process: HummingbirdTesting's client, whose read timeout is a hang
/// guard (`app.test(.live)` gives 20 s, which the largest requests passed
/// on a loaded machine), and whose expiry names the request that hung.
public struct APIClient: Sendable {
    /// How long a request may go unanswered: twice the hang guard, for the
    /// largest requests (a full batch of changes, on PostgreSQL).
    public static let timeout: Duration = hangGuard * 2

    let client: TestClient
    public let port: Int

    /// Sends a request and returns its whole answer.
    public func execute(uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:], body: ByteBuffer? = nil) async throws -> APIResponse {
        var headers = headers
        headers[.connection] = "keep-alive"
        let request = TestClient.Request(uri, method: method, authority: "localhost", headers: headers, body: body)
        do {
            let response = try await client.execute(request)
            return APIResponse(head: response.head, body: response.body ?? ByteBuffer())
        } catch TestClient.Error.readTimeout {
            throw TestFailure("the players API on port \(port) did not answer \(method) \(uri) within \(Self.timeout) (the hang guard)")
        }
    }

    /// Serves `router` on a free loopback port, logging at `warning` (the
    /// tests read no request line), and runs `body` with a client of it;
    /// then shuts the server down.
    public static func withServer<Value: Sendable>(
        _ router: Router<PlayersRequestContext>, _ body: @Sendable (APIClient) async throws -> Value
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
            let client = APIClient(client: TestClient(host: "127.0.0.1", port: port, configuration: .init(timeout: timeout)), port: port)
            client.client.connect()
            do {
                let value = try await body(client)
                try await client.client.shutdown()
                await services.triggerGracefulShutdown()
                return value
            } catch {
                try? await client.client.shutdown()
                await services.triggerGracefulShutdown()
                throw error
            }
        }
    }
}
