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
        try await send(to: server.baseURL, method: method, events: events)
    }

    func send(to baseURL: String, method: String = "GET", events: RetryLog? = nil) async throws -> HTTPResponse {
        let transport = RetryingTransport(CurlTransport(), policy: Self.fastPolicy) { event in
            events?.events.withLock { $0.append(event) }
        }
        return try await transport.send(HTTPRequest(method: method, url: URL(string: baseURL + "/v1/players")!))
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

    /// The second attempt waits for the `Retry-After` on the transport's
    /// clock: it is sent once the test has moved that clock a second on.
    @Test(.hangGuard) func retryAfterSetsTheDelay() async throws {
        let server = try ScriptedHTTPServer { _, number in number == 0 ? .json("{}", status: 503, headers: ["Retry-After": "1"]) : .json("{}") }
        defer { server.stop() }
        let events = RetryLog()
        let clock = ManualClock()
        var transport = RetryingTransport(CurlTransport(), policy: Self.fastPolicy) { event in
            events.events.withLock { $0.append(event) }
        }
        transport.clock = clock
        let request = HTTPRequest(url: URL(string: server.baseURL + "/v1/players")!)
        let response = Task { [transport] in try await transport.send(request) }
        try await clock.waitForSleepers(1)
        #expect(clock.sleeperDeadlines == [ManualClock.Instant(offset: .seconds(1))])
        #expect(server.requests.count == 1)
        clock.advance(by: .seconds(1))
        #expect(try await response.value.status == 200)
        #expect(server.requests.count == 2)
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
        let refusing = try RefusingPort()
        defer { refusing.close() }
        let events = RetryLog()
        await #expect(throws: TransportError.connectionFailed) { try await send(to: refusing.baseURL, events: events) }
        #expect(events.events.withLock { $0.map(\.failedAttempt) } == [1, 2])
    }

    static let backoffSeeds = TestSeeds("BACKOFF", test: "RetryingTransportTests/backoffGrowsAndStaysWithinItsBounds", correctness: 5, long: 100)

    @Test func backoffGrowsAndStaysWithinItsBounds() {
        var policy = RetryPolicy()
        policy.initialDelay = 1
        policy.maximumDelay = 3
        for seed in Self.backoffSeeds.all {
            var random = SeededRandom(seed: seed)
            for _ in 0..<100 {
                let delays = [1, 2, 5].map { policy.backoff(afterAttempt: $0, using: &random) }
                #expect((0.5...1).contains(delays[0]) && (1...2).contains(delays[1]) && (1.5...3).contains(delays[2]),
                        "\(delays) (\(Self.backoffSeeds.replay(seed)))")
            }
        }
    }
}

/// The retries a transport announced. `Sendable` through its mutex.
final class RetryLog: Sendable {
    let events = Mutex<[RetryEvent]>([])
}
