import Foundation
import Logging
import NIOCore
import PostgresNIO

extension PostgresPlayersStore {
    /// Opens one connection to `url`, runs `SELECT 1` and closes it, within
    /// `timeout`: a server that is down, a wrong password, a missing
    /// database or a refused TLS become one ``PostgresStoreError`` sentence
    /// at once, where the pool of a ``PostgresPlayersStore`` would retry
    /// without end.
    static func checkConnection(_ url: PostgresURL, timeout: Duration, logger: Logger) async throws {
        let configuration = try url.connectionConfiguration(connectTimeout: timeout)
        // The connect timeout bounds the TCP connection only: a peer that
        // accepts and then says nothing is bounded by the deadline.
        let noAnswer = PostgresStoreError("cannot connect to PostgreSQL at \(url.endpointDescription): no answer within \(timeout.components.seconds) s.")
        try await DeadlineRace.run(timeout, noAnswer) {
            do {
                let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
                do {
                    try await connection.query("SELECT 1", logger: logger)
                } catch {
                    try? await connection.close()
                    throw error
                }
                try await connection.close()
            } catch let error as PSQLError {
                throw PostgresStoreError(connectingTo: url, error)
            }
        }
    }
}

extension PostgresStoreError {
    /// What failed when connecting to `url`, in words: PostgreSQL's own
    /// message for a refusal (it names the user or the database, never
    /// the password), the network's for a server that cannot be reached.
    init(connectingTo url: PostgresURL, _ error: PSQLError) {
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
