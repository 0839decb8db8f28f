import Foundation
import PostgresNIO

/// A PostgreSQL connection URL, `postgres://user:password@host:port/database`
/// (`postgresql://` too), as the client configuration of a
/// ``PostgresPlayersStore``. `?sslmode=require` asks for TLS, checked
/// against the system's certificates; any other mode connects without.
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
        let sslMode = components.queryItems?.first { $0.name == "sslmode" }?.value
        let tls: PostgresClient.Configuration.TLS = sslMode == "require" ? .require(.makeClientConfiguration()) : .disable
        configuration = PostgresClient.Configuration(
            host: host,
            port: components.port ?? 5432,
            username: user,
            password: components.password,
            database: database.isEmpty ? nil : database,
            tls: tls)
    }
}
