import ArgumentParser
import Foundation
import SyncServerAuth

extension PlayersServerCommand {
    /// `players-server token`: a token signed with an HS256 key file, for
    /// development and the docs; in production an identity provider signs
    /// them.
    struct Token: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a JSON Web Token signed with an HS256 key file, for a server started with --auth jwt.",
            discussion: """
                For development and the documentation: in production, an identity provider signs the tokens, \
                and the server holds only its public key. The token goes on standard output alone.
                """)

        @Option(help: ArgumentHelp("The user (sub).", valueName: "name"))
        var sub: String

        @Option(help: ArgumentHelp("The user's roles, comma-separated (roles).", valueName: "roles"))
        var roles: String?

        @Option(help: ArgumentHelp("How long the token is valid, in seconds (1 to 31536000; default: 3600).", valueName: "seconds"))
        var expiresIn = 3600

        @OptionGroup var jwt: JWTOptions

        func validate() throws {
            guard !sub.isEmpty else { throw ValidationError("--sub needs a user name.") }
            guard (1...31_536_000).contains(expiresIn) else { throw ValidationError("--expires-in must be from 1 to 31536000 seconds.") }
            guard jwt.jwtKeyFile != nil else { throw ValidationError("players-server token needs --jwt-key-file, the HS256 secret.") }
        }

        func run() async throws {
            let keys = try await jwt.keys()
            let roles = roles.map { $0.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty } } ?? []
            do {
                print(try await keys.signedToken(user: sub, roles: roles, lifetime: TimeInterval(expiresIn), audience: jwt.jwtAudience,
                                                 issuer: jwt.jwtIssuer))
            } catch {
                throw ServerFailure(error.description)
            }
        }
    }
}
