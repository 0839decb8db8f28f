import Foundation

/// Sends HTTP requests and returns their responses, whatever their status:
/// interpreting a status is the caller's job.
///
/// ```swift
/// let transport = CurlTransport(configuration: TransportConfiguration())
/// let response = try await transport.send(HTTPRequest(url: url))
/// ```
public protocol HTTPTransport: Sendable {
    /// Sends the request. Throws ``TransportError`` when no complete
    /// response arrives, and `CancellationError` when the task is
    /// cancelled.
    func send(_ request: HTTPRequest) async throws -> HTTPResponse
}

/// An HTTP request.
public struct HTTPRequest: Sendable, Equatable {
    public var method: String
    public var url: URL
    /// Extra headers. The transport adds `User-Agent`, `Accept-Encoding`
    /// and `Authorization` itself.
    public var headers: [String: String]
    public var body: Data?
    /// Whether sending the request twice does what sending it once does,
    /// so that a transport may retry it after a failure that leaves its
    /// fate unknown: true for GET, HEAD, PUT, DELETE and OPTIONS, and for a
    /// POST whose body the server deduplicates (the mutation ids of a
    /// push).
    public var isIdempotent: Bool
    /// How long the server may rightly send nothing before it answers, in
    /// seconds: a long-poll's wait (`wait=`). The transport's stall limit
    /// and timeout are counted after it, so that a quiet long-poll is not
    /// taken for a stalled transfer. Default: 0.
    public var serverHold: TimeInterval

    public init(method: String = "GET", url: URL, headers: [String: String] = [:], body: Data? = nil, isIdempotent: Bool? = nil,
                serverHold: TimeInterval = 0) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.isIdempotent = isIdempotent ?? ["GET", "HEAD", "PUT", "DELETE", "OPTIONS"].contains(method)
        self.serverHold = serverHold
    }
}

/// An HTTP response: its status, headers and whole body.
public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    /// Header names are lowercased; a repeated header keeps its last value.
    public var headers: [String: String]
    /// The body, decompressed when the server sent it gzip-encoded.
    public var body: Data
    /// The URL that answered, after redirects.
    public var url: URL
    /// The bytes received on the wire, headers excluded (compressed when
    /// the body was).
    public var bytesReceived: Int

    public init(status: Int, headers: [String: String] = [:], body: Data = Data(), url: URL, bytesReceived: Int? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
        self.bytesReceived = bytesReceived ?? body.count
    }

    /// The delay a `Retry-After` header asks for, in seconds: a number of
    /// seconds, or an HTTP date.
    public func retryAfter(now: Date = Date()) -> TimeInterval? {
        guard let value = headers["retry-after"]?.trimmingCharacters(in: .whitespaces) else { return nil }
        if let seconds = Int(value) { return seconds >= 0 ? TimeInterval(seconds) : nil }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: value) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }
}
