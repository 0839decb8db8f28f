import CipherSync
import TestSupport
import Foundation
import Synchronization
import Testing

/// libcurl transfers against real loopback servers that misbehave on
/// purpose.
@Suite struct CurlTransportTests {
    func get(_ server: ScriptedHTTPServer, _ path: String = "/v1/players",
             configure: (inout TransportConfiguration) -> Void = { _ in }) async throws -> HTTPResponse {
        var configuration = TransportConfiguration()
        configuration.connectTimeout = 5
        configuration.timeout = 30
        configure(&configuration)
        return try await CurlTransport(configuration: configuration).send(HTTPRequest(url: URL(string: server.baseURL + path)!))
    }

    @Test func aResponseCarriesItsStatusHeadersAndBody() async throws {
        let server = try ScriptedHTTPServer { _, _ in .json(#"{"ok":true}"#, headers: ["ETag": "\"abc\""]) }
        defer { server.stop() }
        let response = try await get(server)
        #expect(response.status == 200)
        #expect(response.headers["etag"] == "\"abc\"")
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"ok":true}"#)
        #expect(server.requests.first?.headers["user-agent"] == "CipherSync/\(CipherSyncVersion.string)")
        #expect(server.requests.first?.headers["accept-encoding"]?.contains("gzip") == true)
    }

    @Test func progressReportsTheBytesReceived() async throws {
        let server = try ScriptedHTTPServer { _, _ in .response(200, body: Data(count: 100_000)) }
        defer { server.stop() }
        let log = ProgressLog()
        _ = try await get(server) { configuration in
            configuration.progress = { received, expected in log.samples.withLock { $0.append((received, expected)) } }
        }
        let samples = log.samples.withLock { $0 }
        #expect(samples.last?.received == 100_000)
        #expect(samples.last?.expected == 100_000)
        #expect(samples.map(\.received) == samples.map(\.received).sorted())
    }

    @Test func theBearerTokenIsSentButNeverPrinted() async throws {
        let server = try ScriptedHTTPServer { _, _ in .json("{}") }
        defer { server.stop() }
        var configuration = TransportConfiguration()
        configuration.bearerToken = "s3cret-token"
        _ = try await CurlTransport(configuration: configuration).send(HTTPRequest(url: URL(string: server.baseURL + "/")!))
        #expect(server.requests.first?.headers["authorization"] == "Bearer s3cret-token")
        #expect(!"\(configuration)".contains("s3cret"))
        var dumped = ""
        dump(configuration, to: &dumped)
        #expect(!dumped.contains("s3cret"))
    }

    @Test func theTokenIsNotSentToAnotherHostARedirectLeadsTo() async throws {
        let other = try ScriptedHTTPServer { _, _ in .json("{}") }
        defer { other.stop() }
        // "localhost" is another host name than "127.0.0.1" for libcurl.
        let server = try ScriptedHTTPServer { _, _ in .response(302, headers: ["Location": "http://localhost:\(other.port)/x"]) }
        defer { server.stop() }
        let response = try await get(server) { $0.bearerToken = "s3cret-token" }
        #expect(response.status == 200)
        #expect(server.requests.first?.headers["authorization"] == "Bearer s3cret-token")
        #expect(other.requests.first?.headers["authorization"] == nil)
    }

    @Test func aBodyAnnouncedOverTheLimitIsRefused() async throws {
        let server = try ScriptedHTTPServer { _, _ in .response(200, body: Data(count: 2048)) }
        defer { server.stop() }
        await #expect(throws: TransportError.bodyTooLarge) {
            try await get(server) { $0.maximumBodySize = 1024 }
        }
    }

    @Test func aBodyWithoutLengthIsCutAtTheLimit() async throws {
        let server = try ScriptedHTTPServer { _, _ in
            [.send(Data("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n".utf8)), .send(Data(count: 4096))]
        }
        defer { server.stop() }
        await #expect(throws: TransportError.bodyTooLarge) {
            try await get(server) { $0.maximumBodySize = 1024 }
        }
    }

    @Test func gzipBodiesAreDecompressed() async throws {
        let text = String(repeating: "players ", count: 1000)
        let compressed = try gzip(Data(text.utf8))
        let server = try ScriptedHTTPServer { _, _ in .response(200, headers: ["Content-Encoding": "gzip"], body: compressed) }
        defer { server.stop() }
        let response = try await get(server)
        #expect(String(decoding: response.body, as: UTF8.self) == text)
        #expect(response.bytesReceived == compressed.count)
    }

    @Test func aGzipBombIsStoppedAtTheDecompressedLimit() async throws {
        // 64 MiB of zeros compress to about 64 KiB.
        let bomb = try gzip(Data(count: 64 * 1024 * 1024))
        let server = try ScriptedHTTPServer { _, _ in .response(200, headers: ["Content-Encoding": "gzip"], body: bomb) }
        defer { server.stop() }
        await #expect(throws: TransportError.bodyTooLarge) {
            try await get(server) { $0.maximumBodySize = 1024 * 1024 }
        }
    }

    @Test func aConnectionDroppedMidBodyIsALostConnection() async throws {
        let server = try ScriptedHTTPServer { _, _ in
            [.send(Data("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\nConnection: close\r\n\r\n{\"protocolVersion\":1".utf8))]
        }
        defer { server.stop() }
        await #expect(throws: TransportError.connectionLost) { try await get(server) }
    }

    /// libcurl's own stall timer, for real: the body never comes, and the
    /// transfer ends with a timeout rather than hanging (the server holds
    /// it until it stops).
    @Test(.hangGuard) func aStalledServerTimesOut() async throws {
        let server = try ScriptedHTTPServer { _, _ in
            [.send(Data("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n{".utf8)), .holdUntilStopped]
        }
        defer { server.stop() }
        await #expect(throws: TransportError.timedOut) {
            try await get(server) {
                $0.lowSpeedTime = 1
                $0.lowSpeedLimit = 10
            }
        }
        #expect(server.requests.count == 1)
    }

    /// A long-poll's hold comes before the stall limit. Two requests with
    /// the same limit get no byte: the one sent second, without a hold,
    /// stalls; the long-poll, sent first and so silent for longer, is
    /// still waiting, and gets its answer when the server sends it.
    @Test(.hangGuard) func aLongPollHeldLongerThanTheStallLimitIsAnswered() async throws {
        let answer = Gate()
        let server = try ScriptedHTTPServer { request, _ in
            guard request.path == "/held" else { return [.holdUntilStopped] }
            return [.hold(answer), .send(Data("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}".utf8))]
        }
        defer { server.stop() }
        var configuration = TransportConfiguration()
        configuration.lowSpeedTime = 1
        configuration.lowSpeedLimit = 10
        let transport = CurlTransport(configuration: configuration)
        let longPoll = Task {
            try await transport.send(HTTPRequest(url: URL(string: server.baseURL + "/held")!, serverHold: 3600))
        }
        try await waitUntil("the server received the long-poll") { server.requests.count == 1 }
        await #expect(throws: TransportError.timedOut) {
            try await transport.send(HTTPRequest(url: URL(string: server.baseURL + "/silent")!))
        }
        answer.open()
        let response = try await longPoll.value
        #expect(response.status == 200 && response.body == Data("{}".utf8))
    }

    @Test func aRefusedConnectionIsAConnectionFailure() async throws {
        let refusing = try RefusingPort()
        defer { refusing.close() }
        await #expect(throws: TransportError.connectionFailed) {
            try await CurlTransport().send(HTTPRequest(url: URL(string: refusing.baseURL + "/v1/players")!))
        }
    }

    @Test func aRedirectToAFileURLIsRefused() async throws {
        let server = try ScriptedHTTPServer { _, _ in .response(302, headers: ["Location": "file:///etc/passwd"]) }
        defer { server.stop() }
        await #expect(throws: TransportError.forbiddenProtocol) { try await get(server) }
    }

    @Test func moreThanFiveRedirectsAreRefused() async throws {
        let server = try ScriptedHTTPServer { request, number in .response(302, headers: ["Location": "/r\(number)"]) }
        defer { server.stop() }
        await #expect(throws: TransportError.tooManyRedirects) { try await get(server) }
        #expect(server.requests.count == 6)
    }

    @Test func onlyHTTPAndHTTPSURLsAreSent() async throws {
        await #expect(throws: TransportError.invalidURL) {
            try await CurlTransport().send(HTTPRequest(url: URL(string: "ftp://127.0.0.1/players")!))
        }
        await #expect(throws: TransportError.invalidURL) {
            try await CurlTransport().send(HTTPRequest(url: URL(string: "file:///etc/passwd")!))
        }
    }

    /// The server holds the body until it stops, and libcurl's timeouts
    /// are longer than the test's time limit: only the cancellation can
    /// end the transfer.
    @Test(.hangGuard) func cancellingTheTaskAbortsTheTransfer() async throws {
        let server = try ScriptedHTTPServer { _, _ in
            [.send(Data("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n{".utf8)), .holdUntilStopped]
        }
        defer { server.stop() }
        let task = Task { try await get(server) { $0.timeout = 600; $0.lowSpeedTime = 600 } }
        try await waitUntil("the server received the request") { server.requests.count == 1 }
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
    }
}

/// TLS against `openssl s_server` with a self-signed certificate.
@Suite(.serialized) struct CurlTransportTLSTests {
    @Test func httpsWorksWithTheServersCertificateAuthority() async throws {
        let server = try OpenSSLServer(responses: ["ok": "HTTP/1.0 200 OK\r\nContent-Type: application/json\r\n\r\n{\"ok\":true}"])
        defer { server.stop() }
        var configuration = TransportConfiguration()
        configuration.caCertificatePath = server.certificatePath
        let response = try await CurlTransport(configuration: configuration).send(HTTPRequest(url: URL(string: server.baseURL + "/ok")!))
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"ok":true}"#)
    }

    @Test func anUntrustedCertificateIsRefused() async throws {
        let server = try OpenSSLServer(responses: ["ok": "HTTP/1.0 200 OK\r\n\r\n{}"])
        defer { server.stop() }
        await #expect(throws: TransportError.tlsFailure) {
            try await CurlTransport().send(HTTPRequest(url: URL(string: server.baseURL + "/ok")!))
        }
    }

    @Test func aRedirectFromHTTPSDownToHTTPIsRefused() async throws {
        let plain = try ScriptedHTTPServer { _, _ in .json("{}") }
        defer { plain.stop() }
        let server = try OpenSSLServer(responses: ["down": "HTTP/1.0 302 Found\r\nLocation: \(plain.baseURL)/v1/players\r\n\r\n"])
        defer { server.stop() }
        var configuration = TransportConfiguration()
        configuration.caCertificatePath = server.certificatePath
        configuration.bearerToken = "s3cret-token"
        await #expect(throws: TransportError.forbiddenProtocol) {
            try await CurlTransport(configuration: configuration).send(HTTPRequest(url: URL(string: server.baseURL + "/down")!))
        }
        #expect(plain.requests.isEmpty)
    }
}

/// The progress calls of a transfer. `Sendable` through its mutex.
final class ProgressLog: Sendable {
    let samples = Mutex<[(received: Int64, expected: Int64)]>([])
}
