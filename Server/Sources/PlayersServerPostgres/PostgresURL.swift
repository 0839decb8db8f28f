import Foundation
import PostgresNIO

/// A PostgreSQL connection URL, `postgres://user:password@host:port/database`
/// (`postgresql://` too), as the client configuration of a
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
    public var configuration: PostgresClient.Configuration

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
        let database = String(components.path.drop { $0 == "/" })
        let sslMode = components.queryItems?.last { $0.name == "sslmode" }?.value ?? "prefer"
        configuration = PostgresClient.Configuration(
            host: host,
            port: components.port ?? 5432,
            username: user,
            password: components.password,
            database: database.isEmpty ? nil : database,
            tls: try Self.tls(sslMode: sslMode))
    }

    private static func tls(sslMode: String) throws -> PostgresClient.Configuration.TLS {
        var tls = TLSConfiguration.makeClientConfiguration()
        switch sslMode {
        case "disable":
            return .disable
        case "allow", "prefer":
            tls.certificateVerification = .none
            return .prefer(tls)
        case "require":
            tls.certificateVerification = .none
            return .require(tls)
        case "verify-ca":
            tls.certificateVerification = .noHostnameVerification
            return .require(tls)
        case "verify-full":
            return .require(tls)
        default:
            throw PostgresStoreError(
                "the PostgreSQL URL's sslmode is not one of disable, allow, prefer, require, verify-ca or verify-full.")
        }
    }
}
