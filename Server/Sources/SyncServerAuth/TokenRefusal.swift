/// Why a request's token is refused: answered 401 with ``reason`` in the
/// JSON body and counted in `/metrics` by it. Neither tells the token.
///
/// ```swift
/// do { _ = try await verifier.identity(bearing: token) } catch { print(error.reason) }   // "expired"
/// ```
public enum TokenRefusal: String, Error, Sendable, CaseIterable, CustomStringConvertible {
    /// No `Authorization: Bearer` header.
    case missing
    /// Not a JSON Web Token: three base64url parts of JSON, the claims of
    /// the expected types.
    case malformed
    /// `alg: none`: a token without a signature.
    case unsigned = "algorithm_none"
    /// An algorithm the key does not allow (an HS256 token for a public
    /// key, an ES256 token for an HS256 secret…).
    case algorithmNotAllowed = "algorithm_not_allowed"
    /// Under a key set: no `kid`, or one that the set does not hold.
    case unknownKey = "unknown_key"
    /// The signature is not the key's: signed with another key, or altered.
    case badSignature = "bad_signature"
    /// No `exp`: every token must expire.
    case missingExpiry = "missing_expiry"
    /// No `sub`: the user.
    case missingSubject = "missing_subject"
    case expired
    /// `nbf` is still ahead.
    case notYetValid = "not_yet_valid"
    /// `aud` does not name the server's audience (`--jwt-audience`).
    case wrongAudience = "wrong_audience"
    /// `iss` is not the server's issuer (`--jwt-issuer`).
    case wrongIssuer = "wrong_issuer"

    /// The word of the JSON body and of the metric's label.
    public var reason: String { rawValue }

    public var description: String {
        switch self {
        case .missing: "no token: send 'Authorization: Bearer TOKEN', a JSON Web Token"
        case .malformed: "the token is not a JSON Web Token with claims of the expected types"
        case .unsigned: "the token is not signed (alg: none)"
        case .algorithmNotAllowed: "the token's algorithm is not the one its key allows"
        case .unknownKey: "the token names no key of the server's key set (kid)"
        case .badSignature: "the token's signature is not the server's key's"
        case .missingExpiry: "the token has no expiry (exp)"
        case .missingSubject: "the token names no user (sub)"
        case .expired: "the token has expired: get a new one"
        case .notYetValid: "the token is not valid yet (nbf)"
        case .wrongAudience: "the token is for another audience (aud)"
        case .wrongIssuer: "the token is from another issuer (iss)"
        }
    }
}
