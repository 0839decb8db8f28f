import Foundation
import Synchronization

/// A loopback port that refuses every connection until ``close()``: a
/// socket bound to it that never listens. Unlike the port of a stopped
/// server, no other test's server can be given it meanwhile and answer
/// instead.
///
/// ```swift
/// let refusing = try RefusingPort()
/// defer { refusing.close() }
/// try await CurlTransport().send(HTTPRequest(url: URL(string: refusing.baseURL)!)) // connectionFailed
/// ```
public final class RefusingPort: Sendable {
    public let port: Int
    /// The bound socket, until closed.
    private let descriptor: Mutex<Int32?>

    public init() throws {
        let (descriptor, port) = try bindLoopbackSocket()
        self.descriptor = Mutex(descriptor)
        self.port = port
    }

    /// Frees the port; closing twice is harmless.
    public func close() {
        let open = descriptor.withLock { descriptor in
            defer { descriptor = nil }
            return descriptor
        }
        if let open { Glibc.close(open) }
    }

    public var baseURL: String { "http://127.0.0.1:\(port)" }
}
