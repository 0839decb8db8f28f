import Foundation

/// Why a transfer produced no complete response. Compare with the static
/// constants (`error == .timedOut`); ``detail`` adds what libcurl said.
/// Descriptions are safe to log: they never hold a token or a body.
public struct TransportError: Error, Hashable, Sendable, CustomStringConvertible {
    private enum Code: Hashable, Sendable {
        case invalidURL
        case connectionFailed
        case timedOut
        case connectionLost
        case bodyTooLarge
        case forbiddenProtocol
        case tooManyRedirects
        case tlsFailure
        case badContentEncoding
        case libcurlUnavailable
        case transferFailed
    }

    private let code: Code
    /// What libcurl said, or another precision; never a secret.
    public let detail: String?

    private init(_ code: Code, detail: String? = nil) {
        self.code = code
        self.detail = detail
    }

    /// The URL is not an absolute `http` or `https` URL.
    public static let invalidURL = TransportError(.invalidURL)
    /// No connection could be made: refused, unreachable, or a name that
    /// does not resolve.
    public static let connectionFailed = TransportError(.connectionFailed)
    /// The connection, the transfer or a stall exceeded its time limit.
    public static let timedOut = TransportError(.timedOut)
    /// The connection closed before the whole response arrived.
    public static let connectionLost = TransportError(.connectionLost)
    /// The body, decompressed, exceeds the configured maximum.
    public static let bodyTooLarge = TransportError(.bodyTooLarge)
    /// A URL or a redirect uses a protocol other than `http` and `https`,
    /// or leads from `https` down to `http`.
    public static let forbiddenProtocol = TransportError(.forbiddenProtocol)
    /// More redirects than the configured maximum.
    public static let tooManyRedirects = TransportError(.tooManyRedirects)
    /// TLS failed: an untrusted or invalid certificate, or a handshake error.
    public static let tlsFailure = TransportError(.tlsFailure)
    /// The body's `Content-Encoding` could not be decoded.
    public static let badContentEncoding = TransportError(.badContentEncoding)
    /// libcurl (`libcurl.so.4`) could not be loaded: no transfer can run.
    public static let libcurlUnavailable = TransportError(.libcurlUnavailable)
    /// Any other libcurl failure.
    public static let transferFailed = TransportError(.transferFailed)

    /// The same error, with a precision.
    public func with(detail: String?) -> TransportError {
        TransportError(code, detail: detail)
    }

    /// Errors compare by kind, whatever their detail.
    public static func == (lhs: TransportError, rhs: TransportError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }

    /// Whether trying again may succeed: connection failures, timeouts and
    /// lost connections.
    public var isTransient: Bool {
        switch code {
        case .connectionFailed, .timedOut, .connectionLost: return true
        default: return false
        }
    }

    public var description: String {
        let because = detail.map { " (\($0))" } ?? ""
        switch code {
        case .invalidURL:
            return "the URL is not an http or https URL\(because): give one such as http://127.0.0.1:8080"
        case .connectionFailed:
            return "cannot connect to the server\(because): check the URL and that the server is running"
        case .timedOut:
            return "the server did not answer in time\(because): try again later, or allow more time"
        case .connectionLost:
            return "the connection closed before the whole response arrived\(because): try again"
        case .bodyTooLarge:
            return "the response is larger than the limit\(because): check that the URL is the right server"
        case .forbiddenProtocol:
            return "refused a URL or redirect that is not http or https, or that leads from https down to http\(because): check the URL"
        case .tooManyRedirects:
            return "the server redirected too many times\(because): check the URL"
        case .tlsFailure:
            return "the TLS connection failed\(because): check the server's certificate, or trust its certificate authority"
        case .badContentEncoding:
            return "the response's compressed body is corrupt\(because): try again"
        case .libcurlUnavailable:
            return "libcurl could not be loaded\(because): install it (Debian's libcurl4)"
        case .transferFailed:
            return "the transfer failed\(because)"
        }
    }
}
