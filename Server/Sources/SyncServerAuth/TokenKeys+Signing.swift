import Foundation
import JWTKit

extension TokenKeys {
    /// A token for `user` with `roles`, signed with the file's HS256 secret,
    /// expiring `lifetime` after `now`: `players-server token`, for
    /// development and the docs (an identity provider signs them in
    /// production). A public key or a key set cannot sign.
    ///
    /// ```swift
    /// let token = try await keys.signedToken(user: "alice", roles: ["editor"], lifetime: 3_600, audience: nil, issuer: nil)
    /// ```
    public func signedToken(user: String, roles: [String], lifetime: TimeInterval, audience: String?, issuer: String?,
                            now: Date = Date()) async throws(TokenKeyFileError) -> String {
        guard kind == .secret else { throw .cannotSign(path: path) }
        let claims = TokenClaims(sub: SubjectClaim(value: user), exp: ExpirationClaim(value: now.addingTimeInterval(lifetime)),
                                 nbf: nil, aud: audience.map { AudienceClaim(value: [$0]) }, iss: issuer.map(IssuerClaim.init(value:)),
                                 roles: roles.isEmpty ? nil : roles)
        do {
            return try await collection.sign(claims)
        } catch {
            throw .unreadable(path: path, reason: "the secret cannot sign: \(error)")
        }
    }
}
