/// Why the PostgreSQL store cannot serve, by case: whether the database is
/// unreachable for now (``isUnavailable``: a later call may succeed) or in
/// a state this program cannot serve. Each description is one sentence,
/// safe to log: it never holds the password of a URL.
///
/// ```swift
/// catch let error as PostgresStoreError where error.isUnavailable { … }   // 503, retry later
/// ```
public enum PostgresStoreError: Error, CustomStringConvertible, Equatable {
    // The URL.
    case urlNotPostgres
    case urlWithoutHost
    case urlWithoutUser
    case unknownSSLMode

    // Reaching the database: unavailable for now.
    /// The network's or libpq's reason, such as "connection refused".
    case cannotConnect(endpoint: String, reason: String)
    /// PostgreSQL refused the connection (a wrong password, a missing
    /// database), with its message and SQLSTATE.
    case refused(endpoint: String, message: String, sqlState: String?)
    case passwordMissing(endpoint: String)
    case tlsMissing(endpoint: String, sslMode: String)
    case noAnswer(endpoint: String, seconds: Int64)
    case noFreeConnection(seconds: Int64, connections: Int)
    /// PostgreSQL or the network ended the connection (libpq's reason).
    case connectionLost(endpoint: String, reason: String)
    /// This program closed the connection, while an operation used it.
    case connectionClosed(endpoint: String)
    /// The system refused a resource: memory, a file descriptor.
    case systemResource(String)

    // The database's state, or the store's: not one this program serves.
    case counterMissing
    case identityMissing
    case epochMissing
    case noCurrentSchema
    case newerSchema(version: Int, supported: Int)
    case listenerClosed
    /// A call after the store was closed.
    case closed

    public var isUnavailable: Bool {
        switch self {
        case .cannotConnect, .refused, .passwordMissing, .tlsMissing, .noAnswer, .noFreeConnection, .connectionLost, .connectionClosed,
             .systemResource:
            return true
        case .urlNotPostgres, .urlWithoutHost, .urlWithoutUser, .unknownSSLMode, .counterMissing, .identityMissing, .epochMissing,
             .noCurrentSchema, .newerSchema, .listenerClosed, .closed:
            return false
        }
    }

    public var description: String {
        switch self {
        case .urlNotPostgres: "the PostgreSQL URL is not of the form postgres://user:password@host:port/database."
        case .urlWithoutHost: "the PostgreSQL URL has no host."
        case .urlWithoutUser: "the PostgreSQL URL has no user."
        case .unknownSSLMode: "the PostgreSQL URL's sslmode is not one of disable, allow, prefer, require, verify-ca or verify-full."
        case .cannotConnect(let endpoint, let reason): "cannot connect to PostgreSQL at \(endpoint): \(reason)."
        case .refused(let endpoint, let message, let sqlState):
            "PostgreSQL at \(endpoint) refused the connection: \(message)\(sqlState.map { " (SQLSTATE \($0))" } ?? "")."
        case .passwordMissing(let endpoint):
            "PostgreSQL at \(endpoint) asks for a password and none is given: put it in PLAYERS_SERVER_POSTGRES_URL or PGPASSWORD."
        case .tlsMissing(let endpoint, let sslMode): "PostgreSQL at \(endpoint) does not offer TLS, which sslmode=\(sslMode) requires."
        case .noAnswer(let endpoint, let seconds): "PostgreSQL at \(endpoint) did not answer within \(seconds) s."
        case .noFreeConnection(let seconds, let connections):
            "no PostgreSQL connection was free within \(seconds) s: all \(connections) were in use."
        case .connectionLost(let endpoint, let reason): "PostgreSQL at \(endpoint) closed the connection\(reason.isEmpty ? "" : ": \(reason)")."
        case .connectionClosed(let endpoint): "the connection to PostgreSQL at \(endpoint) was closed."
        case .systemResource(let reason): "the system refused a resource to the PostgreSQL store: \(reason)."
        case .counterMissing: "the change counter is missing from the PostgreSQL database."
        case .identityMissing: "the PostgreSQL database has no server identity: another program changed it; restore it from a backup."
        case .epochMissing: "the PostgreSQL database has no history epoch: another program changed it; restore it from a backup."
        case .noCurrentSchema: "the PostgreSQL session has no current schema."
        case .newerSchema(let version, let supported):
            "the PostgreSQL schema is at version \(version), newer than this program's \(supported): upgrade players-server."
        case .listenerClosed: "the connection listening for changes closed."
        case .closed: "the PostgreSQL store is closed."
        }
    }
}
