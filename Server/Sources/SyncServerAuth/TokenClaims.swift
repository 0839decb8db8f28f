import JWTKit

/// The claims the server reads from a token. jwt-kit decodes them and
/// checks the signature; ``TokenVerifier`` checks them with its clock.
struct TokenClaims: JWTPayload {
    var sub: SubjectClaim?
    var exp: ExpirationClaim?
    var nbf: NotBeforeClaim?
    var aud: AudienceClaim?
    var iss: IssuerClaim?
    var roles: [String]?

    /// Nothing here: the verifier checks the claims with its own clock
    /// and leeway, and says which failed.
    func verify(using algorithm: some JWTAlgorithm) async throws {}
}
