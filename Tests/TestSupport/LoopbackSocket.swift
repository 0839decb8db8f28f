import Foundation

/// A TCP socket bound to a loopback port of the kernel's choice: the
/// descriptor and the port. The caller closes the descriptor.
///
/// ```swift
/// let (descriptor, port) = try bindLoopbackSocket()
/// defer { close(descriptor) }
/// ```
public func bindLoopbackSocket() throws -> (descriptor: Int32, port: Int) {
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard descriptor >= 0 else { throw TestFailure("cannot open a socket: \(String(cString: strerror(errno)))") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
    }
    let named = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
    }
    guard bound == 0, named == 0 else {
        let reason = String(cString: strerror(errno))
        close(descriptor)
        throw TestFailure("cannot bind a loopback port: \(reason)")
    }
    return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
}
