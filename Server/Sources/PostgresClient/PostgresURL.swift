import Foundation

/// A PostgreSQL connection URL, `postgres://user:password@host:port/database`
/// (`postgresql://` too), as the connection configuration of a
/// PostgreSQL store.
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
            throw PostgresStoreError.urlNotPostgres
        }
        guard let host = components.host, !host.isEmpty else {
            throw PostgresStoreError.urlWithoutHost
        }
        guard let user = components.user, !user.isEmpty else {
            throw PostgresStoreError.urlWithoutUser
        }
        self.host = host
        port = components.port ?? 5432
        self.user = user
        password = components.password
        let database = String(components.path.drop { $0 == "/" })
        self.database = database.isEmpty ? nil : database
        sslMode = components.queryItems?.last { $0.name == "sslmode" }?.value ?? "prefer"
        guard Self.sslModes.contains(sslMode) else {
            throw PostgresStoreError.unknownSSLMode
        }
    }

    /// Where the URL points, for messages: never the password.
    public var endpointDescription: String {
        "\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }

    /// The modes of `sslmode`, as libpq has them.
    static let sslModes = ["disable", "allow", "prefer", "require", "verify-ca", "verify-full"]

    /// The system's certificate authorities, which `verify-ca` and
    /// `verify-full` check the server's certificate against unless
    /// `PGSSLROOTCERT` names others (libpq's own default is a file in the
    /// home folder, which servers seldom have).
    static let systemCertificates = "/etc/ssl/certs/ca-certificates.crt"

    /// libpq's connection parameters for this URL (the password among
    /// them: never logged).
    var connectionParameters: [(key: String, value: String)] {
        var parameters: [(key: String, value: String)] = [
            ("host", host), ("port", String(port)), ("user", user), ("dbname", database ?? user),
            ("sslmode", sslMode), ("client_encoding", "UTF8"), ("fallback_application_name", "players-server"),
            // No Kerberos encryption attempt before the TLS that sslmode says.
            ("gssencmode", "disable"),
        ]
        if let password { parameters.append(("password", password)) }
        if sslMode.hasPrefix("verify"), ProcessInfo.processInfo.environment["PGSSLROOTCERT"] == nil {
            parameters.append(("sslrootcert", Self.systemCertificates))
        }
        return parameters
    }
}
