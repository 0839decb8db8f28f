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
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        guard descriptor >= 0, bound == 0 else {
            if descriptor >= 0 { Glibc.close(descriptor) }
            throw TestFailure("cannot bind a loopback port")
        }
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        self.descriptor = Mutex(descriptor)
        port = Int(UInt16(bigEndian: address.sin_port))
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
