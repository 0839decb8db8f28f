import Foundation

/// The settings of ``CurlTransport``. Every parameter has a default, and
/// the defaults are the hardened ones: only `http` and `https`, no
/// redirect from `https` down to `http`, TLS verification always on.
public struct TransportConfiguration: Sendable {
    /// The longest wait for a connection, in seconds. Default: 10.
    public var connectTimeout: TimeInterval = 10
    /// The longest a whole transfer may last, in seconds. Default: 60.
    public var timeout: TimeInterval = 60
    /// A transfer slower than `lowSpeedLimit` bytes per second for
    /// `lowSpeedTime` seconds is a stall, and is abandoned. Default: under
    /// 1 byte/s for 15 s.
    public var lowSpeedLimit: Int = 1
    public var lowSpeedTime: TimeInterval = 15
    /// The largest body accepted, counted after decompression. Default: 64 MiB.
    public var maximumBodySize: Int = 64 * 1024 * 1024
    /// The most redirects followed. Default: 5.
    public var maximumRedirects: Int = 5
    /// A PEM file of certificate authorities to trust instead of the
    /// system's, for a server with a private CA.
    public var caCertificatePath: String?
    /// Sent as `Authorization: Bearer TOKEN`, and only to the host of the
    /// request (never to another host a redirect leads to).
    public var bearerToken: String?
    /// Read before each request, when given, instead of ``bearerToken``: a
    /// token file read again, so that a token renewed while the client
    /// runs (its long-poll ended with 401 as it expired) is the one the
    /// next request sends. What it throws fails the request.
    public var bearerTokenSource: (@Sendable () throws -> String?)?
    /// The `User-Agent` header.
    public var userAgent: String = "CipherSync/\(CipherSyncVersion.string)"
    /// Called with the bytes received so far and the expected total (0
    /// when unknown), from the transfer's thread.
    public var progress: (@Sendable (_ received: Int64, _ expected: Int64) -> Void)?

    public init() {}
}

extension TransportConfiguration: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The settings, with the bearer token hidden.
    public var description: String {
        "TransportConfiguration(connectTimeout: \(connectTimeout), timeout: \(timeout), "
            + "lowSpeed: \(lowSpeedLimit) B/s for \(lowSpeedTime) s, maximumBodySize: \(maximumBodySize), "
            + "maximumRedirects: \(maximumRedirects), caCertificatePath: \(caCertificatePath ?? "system"), "
            + "bearerToken: \(bearerToken == nil && bearerTokenSource == nil ? "none" : "<hidden>"), userAgent: \(userAgent))"
    }

    public var debugDescription: String { description }

    /// `dump` shows the description, never the token.
    public var customMirror: Mirror { Mirror(self, children: ["description": description]) }
}

/// The version of CipherSync, sent in the `User-Agent`.
public enum CipherSyncVersion {
    public static let string = "1.0.0"
}
