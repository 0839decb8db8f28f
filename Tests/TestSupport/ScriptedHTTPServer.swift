import Foundation
import Synchronization

/// A real HTTP/1.1 server on a loopback port, whose answers a test writes
/// byte by byte: the way to produce what a well-behaved server never
/// sends (a truncated body, a stall, a gzip bomb). Each connection gets
/// one answer, then is closed. Time plays no part: a stall is an answer
/// held at a ``Gate`` that the test opens, or that ``stop()`` opens.
public final class ScriptedHTTPServer: Sendable {
    /// A request as it arrived.
    public struct Request: Sendable {
        public var method: String
        public var path: String
        /// Lowercased names.
        public var headers: [String: String]
        /// The body, as long as its `Content-Length` says.
        public var body: Data
    }

    /// What to do on a connection.
    public enum Step: Sendable {
        case send(Data)
        /// Sends nothing more until the gate opens, or the server stops
        /// (then the connection is closed without the steps after).
        case hold(Gate)

        /// A server that never answers: held until it stops.
        public static var holdUntilStopped: Step { .hold(Gate()) }
    }

    public let port: Int
    private let listener: Int32
    private let handler: @Sendable (Request, Int) -> [Step]
    private let recorded = Mutex<[Request]>([])
    private let stopped = DispatchSemaphore(value: 0)
    /// Whether ``stop()`` was called, and the gates answers are held at,
    /// which it opens.
    private let holding = Mutex((isStopped: false, gates: [Gate]()))

    /// Starts listening; `handler` gets each request and its number (from 0).
    public init(_ handler: @escaping @Sendable (Request, Int) -> [Step]) throws {
        self.handler = handler
        let (listener, port) = try bindLoopbackSocket()
        guard listen(listener, 16) == 0 else {
            close(listener)
            throw TestFailure("cannot listen on 127.0.0.1:\(port): \(String(cString: strerror(errno)))")
        }
        self.listener = listener
        self.port = port
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    /// Stops accepting connections (the accepting thread holds the server
    /// until then), and releases the answers held at a gate. The socket is
    /// closed only once that thread is done with it, so that its number
    /// cannot be reused under it by another test's server.
    public func stop() {
        let (wasStopped, gates) = holding.withLock { holding in
            defer { holding = (true, []) }
            return holding
        }
        guard !wasStopped else { return }
        for gate in gates { gate.open() }
        shutdown(listener, Int32(SHUT_RDWR))
        stopped.wait()
    }

    public var baseURL: String { "http://127.0.0.1:\(port)" }

    /// The requests received so far.
    public var requests: [Request] { recorded.withLock { $0 } }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else {
                close(listener)
                stopped.signal()
                return
            }
            let thread = Thread { [self] in serve(connection) }
            thread.start()
        }
    }

    private func serve(_ connection: Int32) {
        defer { close(connection) }
        guard let request = readRequest(connection) else { return }
        let number = recorded.withLock { requests in
            requests.append(request)
            return requests.count - 1
        }
        for step in handler(request, number) {
            switch step {
            case .send(let data):
                let sent = data.withUnsafeBytes { send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if sent < 0 { return }
            case .hold(let gate):
                let isStopped = holding.withLock { holding in
                    if !holding.isStopped { holding.gates.append(gate) }
                    return holding.isStopped
                }
                if isStopped { return }
                gate.wait()
                if holding.withLock({ $0.isStopped }) { return }
            }
        }
    }

    private func readRequest(_ connection: Int32) -> Request? {
        var buffer = Data()
        var chunk = [UInt8](repeating: 0, count: 4096)
        while buffer.range(of: Data("\r\n\r\n".utf8)) == nil {
            let count = recv(connection, &chunk, chunk.count, 0)
            guard count > 0 else { return nil }
            buffer.append(contentsOf: chunk[0..<count])
        }
        let headEnd = buffer.range(of: Data("\r\n\r\n".utf8))!
        let head = String(decoding: buffer[..<headEnd.lowerBound], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ")
        guard requestLine.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Data(buffer[headEnd.upperBound...])
        let length = headers["content-length"].flatMap(Int.init) ?? 0
        while body.count < length {
            let count = recv(connection, &chunk, chunk.count, 0)
            guard count > 0 else { return nil }
            body.append(contentsOf: chunk[0..<count])
        }
        return Request(method: String(requestLine[0]), path: String(requestLine[1]), headers: headers, body: body)
    }
}

extension Array where Element == ScriptedHTTPServer.Step {
    /// A whole response with a `Content-Length`.
    public static func response(_ status: Int, headers: [String: String] = [:], body: Data = Data()) -> Self {
        var head = "HTTP/1.1 \(status) Status\r\nContent-Length: \(body.count)\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        return [.send(Data((head + "\r\n").utf8) + body)]
    }

    public static func json(_ text: String, status: Int = 200, headers: [String: String] = [:]) -> Self {
        response(status, headers: headers.merging(["Content-Type": "application/json"]) { $1 }, body: Data(text.utf8))
    }
}

extension ScriptedHTTPServer {
    /// A server that refuses every request with 403, its message echoing
    /// the request's `Authorization` header: a careless or hostile server,
    /// which a command must not let show its token.
    public static func echoingAuthorization() throws -> ScriptedHTTPServer {
        try ScriptedHTTPServer { request, _ in
            .json(#"{"error":{"message":"\#(request.headers["authorization"] ?? "") is not valid"}}"#, status: 403)
        }
    }
}
