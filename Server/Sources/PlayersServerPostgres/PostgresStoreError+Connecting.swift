import Foundation
import NIOCore
import PostgresNIO

extension PostgresStoreError {
    /// What failed when connecting to `url`, in words: PostgreSQL's own
    /// message for a refusal (it names the user or the database, never
    /// the password), the network's for a server that cannot be reached.
    init(connectingTo url: PostgresURL, _ error: PSQLError) {
        self.init(connectionFailure: url, error)
        kind = .unavailable
    }

    private init(connectionFailure url: PostgresURL, _ error: PSQLError) {
        let endpoint = url.endpointDescription
        switch error.code {
        case .server:
            let message = error.serverInfo?[.message] ?? "no reason given"
            let state = error.serverInfo?[.sqlState].map { " (SQLSTATE \($0))" } ?? ""
            self.init("PostgreSQL at \(endpoint) refused the connection: \(message)\(state).")
        case .sslUnsupported:
            self.init("PostgreSQL at \(endpoint) does not offer TLS, which sslmode=\(url.sslMode) requires.")
        case .authMechanismRequiresPassword:
            self.init(
                "PostgreSQL at \(endpoint) asks for a password and none is given: put it in PLAYERS_SERVER_POSTGRES_URL or PGPASSWORD.")
        case .connectionError, .serverClosedConnection, .uncleanShutdown:
            let reason = error.underlying.map { Self.reason($0) } ?? "the connection failed"
            self.init("cannot connect to PostgreSQL at \(endpoint): \(reason).")
        default:
            self.init("cannot connect to PostgreSQL at \(endpoint): \(error.code).")
        }
    }

    /// The network's reason, short.
    private static func reason(_ error: any Error) -> String {
        switch error {
        case ChannelError.connectTimeout:
            return "no answer within the connect timeout"
        case let error as NIOConnectionError:
            if let first = error.connectionErrors.first { return reason(first.error) }
            if let dns = error.dnsAAAAError ?? error.dnsAError { return "the host name does not resolve (\(dns))" }
            return "the connection failed"
        case let error as IOError:
            return String(cString: strerror(error.errnoCode)).lowercased()
        default:
            return String(describing: error)
        }
    }
}
