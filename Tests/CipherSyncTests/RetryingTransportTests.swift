import CipherSync
import TestSupport
import Foundation
import Synchronization
import Testing

@Suite struct RetryingTransportTests {
    /// Short delays: the tests check what is retried, not how long it waits.
    static let fastPolicy: RetryPolicy = {
        var policy = RetryPolicy()
        policy.initialDelay = 0.05
        policy.maximumDelay = 2
        return policy
    }()

    func send(_ server: ScriptedHTTPServer, method: String = "GET", events: RetryLog? = nil) async throws -> HTTPResponse {
        let transport = RetryingTransport(CurlTransport(), policy: Self.fastPolicy) { event in
            events?.events.withLock { $0.append(event) }
        }
        return try await transport.send(HTTPRequest(method: method, url: URL(string: server.baseURL + "/v1/players")!))
    }

    @Test func aServerErrorIsTriedThreeTimesInAll() async throws {
        let server = try ScriptedHTTPServer { _, _ in .json(#"{"error":{"message":"boom"}}"#, status: 500) }
        defer { server.stop() }
        let response = try await send(server)
        #expect(response.status == 500)
        #expect(server.requests.count == 3)
    }

    @Test func aServerErrorThenSuccessSucceeds() async throws {
        let server = try ScriptedHTTPServer { _, number in number == 0 ? .json("{}", status: 500) : .json("{}") }
        defer { server.stop() }
        #expect(try await send(server).status == 200)
        #expect(server.requests.count == 2)
    }

    @Test func clientErrorsAreNeverRetried() async throws {
        for status in [400, 401, 403, 404, 410] {
            let server = try ScriptedHTTPServer { _, _ in .json("{}", status: status) }
            defer { server.stop() }
            #expect(try await send(server).status == status)
            #expect(server.requests.count == 1)
        }
    }

    @Test func retryAfterSetsTheDelay() async throws {
        let server = try ScriptedHTTPServer { _, number in number == 0 ? .json("{}", status: 503, headers: ["Retry-After": "1"]) : .json("{}") }
        defer { server.stop() }
        let events = RetryLog()
        #expect(try await send(server, events: events).status == 200)
        #expect(events.events.withLock { $0.map(\.delay) } == [1])
    }

    @Test func aRetryAfterLongerThanAllowedIsReturnedAtOnce() async throws {
        let server = try ScriptedHTTPServer { _, _ in .json("{}", status: 429, headers: ["Retry-After": "3600"]) }
        defer { server.stop() }
        let response = try await send(server)
        #expect(response.status == 429)
        #expect(response.retryAfter() == 3600)
        #expect(server.requests.count == 1)
    }

    @Test func aPostIsNotRetriedAfterAServerError() async throws {
        let server = try ScriptedHTTPServer { _, _ in .json("{}", status: 500) }
        defer { server.stop() }
        #expect(try await send(server, method: "POST").status == 500)
        #expect(server.requests.count == 1)
    }

    @Test func connectionFailuresAreRetried() async throws {
        let server = try ScriptedHTTPServer { _, _ in [] }
        server.stop()
        let events = RetryLog()
        await #expect(throws: TransportError.connectionFailed) { try await send(server, events: events) }
        #expect(events.events.withLock { $0.map(\.failedAttempt) } == [1, 2])
    }

    @Test func backoffGrowsAndStaysWithinItsBounds() {
        var policy = RetryPolicy()
        policy.initialDelay = 1
        policy.maximumDelay = 3
        for _ in 0..<100 {
            #expect((0.5...1).contains(policy.backoff(afterAttempt: 1)))
            #expect((1...2).contains(policy.backoff(afterAttempt: 2)))
            #expect((1.5...3).contains(policy.backoff(afterAttempt: 5)))
        }
    }
}

/// The retries a transport announced. `Sendable` through its mutex.
final class RetryLog: Sendable {
    let events = Mutex<[RetryEvent]>([])
}
