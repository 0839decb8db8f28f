import Foundation

extension PostgresStoreError {
    /// What failed when connecting to `url`, in words, from libpq's
    /// message: PostgreSQL's own reason for a refusal (it names the user or
    /// the database, never the password) with its SQLSTATE, the network's
    /// for a server that cannot be reached.
    init(connectingTo url: PostgresURL, libpqMessage message: UnsafePointer<CChar>?) {
        let endpoint = url.endpointDescription
        var reason = PostgresConnection.firstLine(of: message)[...]
        // "connection to server at "host", port 5432 failed: …"
        if let failed = reason.range(of: "failed: ") { reason = reason[failed.upperBound...] }
        if let refusal = Self.refusal(reason) {
            self = .refused(endpoint: endpoint, message: String(refusal.message), sqlState: refusal.sqlState.map(String.init))
        } else if reason.contains("no password supplied") {
            self = .passwordMissing(endpoint: endpoint)
        } else if reason.contains("does not support SSL") {
            self = .tlsMissing(endpoint: endpoint, sslMode: url.sslMode)
        } else {
            self = .cannotConnect(endpoint: endpoint, reason: reason.isEmpty ? "the connection failed" : reason.prefix(1).lowercased() + reason.dropFirst())
        }
    }

    /// The message and SQLSTATE of an error that the server sent
    /// (`FATAL:  28P01: password authentication failed …`, libpq's
    /// verbose form); nil for libpq's own reasons.
    private static func refusal(_ reason: Substring) -> (message: Substring, sqlState: Substring?)? {
        guard let severity = ["FATAL:", "ERROR:", "PANIC:"].first(where: { reason.hasPrefix($0) }) else { return nil }
        let message = reason.dropFirst(severity.count).drop { $0 == " " }
        let code = message.prefix(5)
        if code.count == 5, code.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber) }),
           message.dropFirst(5).hasPrefix(": ") {
            return (message.dropFirst(7), code)
        }
        return (message, nil)
    }
}
