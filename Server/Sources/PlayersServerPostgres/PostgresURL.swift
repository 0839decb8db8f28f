import Foundation
import PostgresNIO

/// A PostgreSQL connection URL, `postgres://user:password@host:port/database`
/// (`postgresql://` too), as the connection configuration of a
/// ``PostgresPlayersStore``.
///
/// `sslmode` has libpq's meanings: `disable` connects without TLS; `allow`
/// and `prefer` (the default) use TLS when the server offers it;
/// `require` insists on TLS without checking the certificate;
/// `verify-ca` checks it against the system's certificates, and
/// `verify-full` checks the host name too. Any other mode is refused,
/// rather than read as a weaker one.
///
/// ```swift
/// let url = try PostgresURL("postgres://players:secret@db.example.com/players?sslmode=verify-full")
/// ```
///
/// See <https://www.postgresql.org/docs/15/libpq-connect.html#LIBPQ-CONNSTRING>.
public struct PostgresURL: Sendable {
    public var host: String
    public var port: Int
    public var user: String
    /// The password, if the URL has one; it is never printed.
    public var password: String?
    public var database: String?
    public var sslMode: String

    /// Parses the URL; throws ``PostgresStoreError``, whose description
    /// never repeats the URL (it holds a password).
    public init(_ string: String) throws {
        guard let components = URLComponents(string: string),
              let scheme = components.scheme, ["postgres", "postgresql"].contains(scheme)
        else {
            throw PostgresStoreError("the PostgreSQL URL is not of the form postgres://user:password@host:port/database.")
        }
        guard let host = components.host, !host.isEmpty else {
            throw PostgresStoreError("the PostgreSQL URL has no host.")
        }
        guard let user = components.user, !user.isEmpty else {
            throw PostgresStoreError("the PostgreSQL URL has no user.")
        }
        self.host = host
        port = components.port ?? 5432
        self.user = user
        password = components.password
        let database = String(components.path.drop { $0 == "/" })
        self.database = database.isEmpty ? nil : database
        sslMode = components.queryItems?.last { $0.name == "sslmode" }?.value ?? "prefer"
        _ = try tlsConfiguration()
    }

    /// Where the URL points, for messages: never the password.
    public var endpointDescription: String {
        "\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }

    /// The configuration of one connection, with this connect timeout.
    package func connectionConfiguration(connectTimeout: Duration) throws -> PostgresConnection.Configuration {
        let tls: PostgresConnection.Configuration.TLS
        switch try tlsConfiguration() {
        case nil: tls = .disable
        case (let configuration, true)?: tls = .require(try NIOSSLContext(configuration: configuration))
        case (let configuration, false)?: tls = .prefer(try NIOSSLContext(configuration: configuration))
        }
        var connection = PostgresConnection.Configuration(
            host: host, port: port, username: user, password: password, database: database, tls: tls)
        connection.options.connectTimeout = .nanoseconds(Int64(connectTimeout.components.seconds) * 1_000_000_000)
        return connection
    }

    /// The TLS of `sslMode`, and whether it is required; nil without TLS.
    private func tlsConfiguration() throws -> (TLSConfiguration, required: Bool)? {
        var tls = TLSConfiguration.makeClientConfiguration()
        switch sslMode {
        case "disable":
            return nil
        case "allow", "prefer":
            tls.certificateVerification = .none
            return (tls, false)
        case "require":
            tls.certificateVerification = .none
            return (tls, true)
        case "verify-ca":
            tls.certificateVerification = .noHostnameVerification
            return (tls, true)
        case "verify-full":
            return (tls, true)
        default:
            throw PostgresStoreError(
                "the PostgreSQL URL's sslmode is not one of disable, allow, prefer, require, verify-ca or verify-full.")
        }
    }
}
