import CipherSync
import Foundation
import Synchronization
import Testing

/// An `HTTPTransport` in memory: it answers each request as its script
/// says, and records the requests. A request that the script does not
/// expect fails the test.
final class ScriptedTransport: HTTPTransport {
    /// What to answer a request.
    enum Answer: Sendable {
        /// 200 with the page as JSON, and an `ETag` when given.
        case page(TestPage, etag: String? = nil)
        /// 200 with these bytes.
        case body(Data)
        /// A status without a body: 304, 410, 401…
        case status(Int)
        /// No answer until the task is cancelled.
        case stall
    }

    private let script: @Sendable (HTTPRequest, Int) -> Answer?
    private let recorded = Mutex<[HTTPRequest]>([])

    /// Answers the request numbered `n` (from 0) with what `script`
    /// returns for it; nil: an unexpected request.
    init(_ script: @escaping @Sendable (_ request: HTTPRequest, _ number: Int) -> Answer?) {
        self.script = script
    }

    /// Answers the requests with `answers`, in order.
    convenience init(_ answers: [Answer]) {
        self.init { _, number in number < answers.count ? answers[number] : nil }
    }

    /// The requests received so far.
    var requests: [HTTPRequest] { recorded.withLock { $0 } }

    /// The URLs requested so far, relative to the server: `/v1/items?since=5`.
    var paths: [String] {
        requests.map { request in request.url.path + (request.url.query.map { "?" + $0 } ?? "") }
    }

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        let number = recorded.withLock { requests in
            requests.append(request)
            return requests.count - 1
        }
        guard let answer = script(request, number) else {
            Issue.record("unexpected request \(number + 1): \(request.url.absoluteString)")
            return HTTPResponse(status: 404, url: request.url)
        }
        switch answer {
        case .page(let page, let etag):
            let headers = etag.map { ["etag": $0] } ?? [:]
            return HTTPResponse(status: 200, headers: headers, body: try JSONEncoder().encode(page), url: request.url)
        case .body(let body):
            return HTTPResponse(status: 200, body: body, url: request.url)
        case .status(let status):
            return HTTPResponse(status: status, url: request.url)
        case .stall:
            // A stream that never yields: iterating it ends only when the
            // task is cancelled.
            let (never, continuation) = AsyncStream<Void>.makeStream()
            defer { continuation.finish() }
            for await _ in never {}
            throw CancellationError()
        }
    }
}
