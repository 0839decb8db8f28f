import ArgumentParser
import SyncServerAuth

/// How the server knows who a request is from: `--auth token` (one shared
/// bearer token, `--token-file`, or none on loopback) or `--auth jwt`
/// (signed identities, each user's token verified with `--jwt-key-file`).
enum ServerAuthMode: String, ExpressibleByArgument, CaseIterable {
    case token, jwt
}

/// The options of `--auth jwt`, which `serve` and `token` share.
struct JWTOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "With --auth jwt: the key that verifies tokens: an HS256 secret (at least 32 bytes, mode 0600), an ES256 or EdDSA public key in PEM, or a JWKS (read again on SIGHUP).",
        valueName: "file"))
    var jwtKeyFile: String?

    @Option(help: ArgumentHelp("With --auth jwt: the audience (aud) every token must name.", valueName: "audience"))
    var jwtAudience: String?

    @Option(help: ArgumentHelp("With --auth jwt: the issuer (iss) every token must have.", valueName: "issuer"))
    var jwtIssuer: String?

    var isGiven: Bool { jwtKeyFile != nil || jwtAudience != nil || jwtIssuer != nil }

    /// The keys, read from `--jwt-key-file`; a file that cannot be used
    /// stops the command (exit 1).
    func keys() async throws -> TokenKeys {
        guard let jwtKeyFile else { throw ValidationError("--auth jwt needs --jwt-key-file.") }
        do {
            return try await TokenKeys(contentsOf: jwtKeyFile)
        } catch {
            throw ServerFailure(error.description)
        }
    }
}
