import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension ServerConfiguration {
    /// Whether a request whose `Host` is `authority` is for this server.
    ///
    /// A page of another site whose name resolves to this server's address
    /// (DNS rebinding) sends that name: it is refused. Accepted: the names
    /// of `allowedHosts`, `host` itself, `localhost` and the loopback
    /// addresses when `host` is a loopback address, and any address or
    /// `localhost` when `host` is a wildcard (`0.0.0.0`, `::`). The port is
    /// not compared: a rebound name uses the server's port anyway.
    public func allowsHost(_ authority: String?) -> Bool {
        guard let authority, let name = Self.hostName(authority), !name.isEmpty else { return false }
        let listening = Self.normalized(host)
        if allowedHosts.contains(where: { Self.normalized($0) == name }) || name == listening { return true }
        if Self.isLoopback(listening) { return name == "localhost" || Self.isLoopback(name) && Self.isAddress(name) }
        if ["0.0.0.0", "::"].contains(listening) { return name == "localhost" || Self.isAddress(name) }
        return false
    }

    /// The name of a `Host` header: without its port and brackets, in
    /// lower case, without a final dot.
    static func hostName(_ authority: String) -> String? {
        var name = Substring(authority)
        if name.hasPrefix("[") {
            guard let end = name.firstIndex(of: "]") else { return nil }
            name = name[name.index(after: name.startIndex)..<end]
        } else if name.filter({ $0 == ":" }).count == 1, let colon = name.firstIndex(of: ":") {
            name = name[..<colon]
        }
        return normalized(String(name))
    }

    static func normalized(_ name: String) -> String {
        let lowercased = name.lowercased()
        return lowercased.hasSuffix(".") ? String(lowercased.dropLast()) : lowercased
    }

    static func isLoopback(_ name: String) -> Bool {
        name == "localhost" || name == "::1" || name.hasPrefix("127.")
    }

    /// Whether `name` is an IPv4 or IPv6 address rather than a DNS name.
    static func isAddress(_ name: String) -> Bool {
        var buffer = in6_addr()
        return inet_pton(AF_INET, name, &buffer) == 1 || inet_pton(AF_INET6, name, &buffer) == 1
    }
}
