import Foundation
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// HTTP/1.1 over a plain loopback socket, written byte by byte: the tests
/// choose every header (`Host`, `Content-Type`), hold connections open
/// without a word, or send half a request, as HTTP clients will not.
final class RawHTTP {
    struct Response {
        let status: Int
        let head: String
        let body: String
    }

    let descriptor: Int32

    /// How long a read waits by default: the hang guard, in seconds.
    static let hangGuardSeconds = TimeInterval(hangGuard.components.seconds)

    let port: Int

    /// Connects to 127.0.0.1:`port`; reads wait at most `timeout` seconds.
    init(port: Int, timeout: TimeInterval = hangGuardSeconds) throws {
        self.port = port
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw TestFailure("socket: \(errno)") }
        var time = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        // Not closed here: a class whose initializer throws once every
        // property is set is deinitialized, and deinit closes it. Closed
        // twice, the second close could take the number another test's
        // socket got in between (tests run in parallel): that socket then
        // failed with EBADF ('send: 9', seen once under load).
        guard result == 0 else { throw TestFailure("connect: \(errno)") }
    }

    deinit { close(descriptor) }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            // errno read at once: releasing the slice's buffer may change it.
            let (count, error) = bytes[sent...].withUnsafeBytes { buffer in
                let count = Glibc.send(descriptor, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL))
                return (count, errno)
            }
            guard count > 0 else { throw TestFailure("send: \(error)") }
            sent += count
        }
    }

    /// Everything until the server closes the connection; nil if it did
    /// not within the timeout.
    func readToEnd() -> String? {
        var data = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count == 0 { return String(decoding: data, as: UTF8.self) }
            if count < 0 { return errno == EINTR ? nil : (errno == ECONNRESET ? String(decoding: data, as: UTF8.self) : nil) }
            data += buffer[0..<count]
        }
    }

    /// Whether the server closed the connection (within the timeout).
    var isClosedByServer: Bool { readToEnd() != nil }

    /// One response on a connection kept alive: its head, then as many
    /// bytes of body as its `Content-Length` says.
    func readResponse() throws -> Response {
        var data = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let text = String(decoding: data, as: UTF8.self)
            if let separator = text.range(of: "\r\n\r\n") {
                let head = text[..<separator.lowerBound].lowercased()
                let length = head.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
                    .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
                if text[separator.upperBound...].utf8.count >= length { return try Self.parse(text) }
            }
            let count = recv(descriptor, &buffer, buffer.count, 0)
            guard count > 0 else { throw TestFailure("the server on port \(port) did not answer in full on a kept-alive connection") }
            data += buffer[0..<count]
        }
    }

    /// Whether an answer has arrived and waits to be read (without
    /// waiting for one).
    /// Whether the server has closed the connection, without waiting:
    /// the end of the stream is there to read now.
    var isClosedNow: Bool {
        var byte: UInt8 = 0
        return recv(descriptor, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) == 0
    }

    var hasAnswerWaiting: Bool {
        var byte: UInt8 = 0
        return recv(descriptor, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) > 0
    }

    /// A request with `Connection: close`, and its whole response.
    static func request(port: Int, _ method: String, _ path: String, host: String?, headers: [String: String] = [:], body: String = "",
                        timeout: TimeInterval = hangGuardSeconds) throws -> Response {
        let connection = try RawHTTP(port: port, timeout: timeout)
        var head = "\(method) \(path) HTTP/1.1\r\n"
        if let host { head += "Host: \(host)\r\n" }
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
        try connection.send(head + body)
        guard let text = connection.readToEnd() else {
            throw TestFailure("the server on port \(port) did not answer \(method) \(path) within \(Int(timeout)) s")
        }
        return try parse(text)
    }

    static func parse(_ text: String) throws -> Response {
        guard let separator = text.range(of: "\r\n\r\n") else { throw TestFailure("not an HTTP response: \(text.prefix(100))") }
        let head = String(text[..<separator.lowerBound])
        let statusLine = head.prefix { $0 != "\r" }.split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw TestFailure("no status in \(head.prefix(100))") }
        return Response(status: status, head: head, body: String(text[separator.upperBound...]))
    }
}
