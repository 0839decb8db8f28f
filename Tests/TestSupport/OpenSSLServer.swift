import Foundation

/// A real TLS server on a loopback port: `openssl s_server -HTTP` with a
/// self-signed certificate for 127.0.0.1, serving raw HTTP responses that
/// a test writes (a redirect, a JSON body). One connection at a time.
public final class OpenSSLServer: Sendable {
    public let port: Int
    /// The server's certificate, to trust as a certificate authority.
    public let certificatePath: String
    private let folder: TemporaryFolder
    private let process: ChildProcess

    /// Serves `responses[name]`, a whole HTTP response, at `/name`.
    public init(responses: [String: String]) throws {
        folder = try TemporaryFolder()
        certificatePath = folder.path("cert.pem")
        try Self.openssl(in: folder, [
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
            "-keyout", "key.pem", "-out", "cert.pem",
            "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
        ])
        for (name, response) in responses {
            let file = folder.url(name)
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(response.utf8).write(to: file)
        }
        port = try freeLoopbackPort()
        process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.currentDirectoryURL = folder.url
        process.arguments = ["s_server", "-accept", "127.0.0.1:\(port)", "-cert", "cert.pem", "-key", "key.pem", "-HTTP", "-quiet"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        try waitUntilListening(port: port)
    }

    public var baseURL: String { "https://127.0.0.1:\(port)" }

    /// Stops the server; its folder goes with the value.
    public func stop() {
        // SIGKILL: a test server has nothing to finish.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    private static func openssl(in folder: TemporaryFolder, _ arguments: [String]) throws {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        process.currentDirectoryURL = folder.url
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw POSIXError(.EIO) }
    }
}

/// A loopback port that nothing listens on (the kernel's choice).
public func freeLoopbackPort() throws -> Int {
    let (descriptor, port) = try bindLoopbackSocket()
    close(descriptor)
    return port
}

/// Waits until something accepts connections on the port (a hang guard:
/// ``waitUntilBlocking(_:timeout:_:)``).
public func waitUntilListening(port: Int) throws {
    try waitUntilBlocking("something to accept connections on 127.0.0.1:\(port)") {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        close(descriptor)
        return connected == 0
    }
}
