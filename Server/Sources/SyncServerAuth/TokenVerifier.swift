import Foundation
import JWTKit
import Synchronization

/// Verifies the JSON Web Token a request carries, with jwt-kit (the
/// parsing, the keys, the signature): the header's algorithm must be the
/// one its key allows (``TokenKeys``), the signature the key's, then the
/// claims are checked with the server's clock: `exp` required and not
/// past, `nbf` not ahead (both with ``Configuration/leeway``), `aud` and
/// `iss` when configured, `sub` present. The identity is `sub` and the
/// `roles` claim. Every refusal says which check failed
/// (``TokenRefusal``), never the token.
///
/// ```swift
/// let verifier = TokenVerifier(keys: try await TokenKeys(contentsOf: path))
/// let identity = try await verifier.identity(bearing: token)   // or throws TokenRefusal.expired…
/// ```
///
/// `Sendable` through its mutex: the keys are replaced whole on a reload.
public final class TokenVerifier: Sendable {
    public struct Configuration: Sendable {
        /// The `aud` a token must name, if any (`--jwt-audience`).
        public var audience: String?
        /// The `iss` a token must have, if any (`--jwt-issuer`).
        public var issuer: String?
        /// The clock skew allowed on `exp` and `nbf`. Default: 60 s.
        public var leeway: TimeInterval
        /// The server's clock: `Date()`, or a test's.
        public var now: @Sendable () -> Date

        public init(audience: String? = nil, issuer: String? = nil, leeway: TimeInterval = 60,
                    now: @escaping @Sendable () -> Date = { Date() }) {
            self.audience = audience
            self.issuer = issuer
            self.leeway = leeway
            self.now = now
        }
    }

    public let configuration: Configuration
    private let keys: Mutex<TokenKeys>
    /// The tokens verified lately with the keys in use, by their text, with
    /// their claims, checked again at each use: a client sends the same
    /// token with each request until it renews it, and its signature is
    /// verified once. Emptied when the keys are read again (a token
    /// verified with the earlier keys meanwhile is not kept), and when full.
    private let verified = Mutex<(keys: Int, claims: [String: TokenClaims])>((0, [:]))

    /// The most verified tokens kept.
    static let verifiedKept = 10_000

    public init(keys: TokenKeys, configuration: Configuration = Configuration()) {
        self.keys = Mutex(keys)
        self.configuration = configuration
    }

    /// Where the keys were read from: ``reloadKeys()`` reads it again.
    public var keyFile: String { keys.withLock { $0.path } }

    /// What the key file holds now.
    public var keyKind: TokenKeys.Kind { keys.withLock { $0.kind } }

    /// Reads the key file again (SIGHUP: a key set rotated); on a failure
    /// the keys in use stay.
    public func reloadKeys() async throws(TokenKeyFileError) {
        let reloaded = try await TokenKeys(contentsOf: keyFile)
        keys.withLock { $0 = reloaded }
        verified.withLock { $0 = ($0.keys + 1, [:]) }
    }

    /// The identity of a request bearing `token` (nil: none was sent).
    public func identity(bearing token: String?) async throws(TokenRefusal) -> SyncIdentity {
        guard let token, !token.isEmpty else { throw .missing }
        // Its signature was verified with the keys in use: its claims are
        // checked again (it may have expired since).
        let (cached, keysVerifiedWith) = verified.withLock { ($0.claims[token], $0.keys) }
        if let cached { return try check(cached) }
        let header: JWTHeader
        do {
            header = try DefaultJWTParser().parse(Array(token.utf8), as: TokenClaims.self).header
        } catch {
            throw .malformed
        }
        guard let algorithm = header.alg else { throw .malformed }
        if algorithm.lowercased() == "none" { throw .unsigned }
        let keys = keys.withLock { $0 }
        guard let allowed = keys.algorithm(forKeyID: header.kid) else { throw .unknownKey }
        guard algorithm == allowed else { throw .algorithmNotAllowed }
        let claims: TokenClaims
        do {
            claims = try await keys.collection.verify(token, as: TokenClaims.self)
        } catch let error as JWTError where error.errorType == .signatureVerificationFailed {
            throw .badSignature
        } catch {
            throw .malformed
        }
        let identity = try check(claims)
        verified.withLock { verified in
            guard verified.keys == keysVerifiedWith else { return }
            if verified.claims.count >= Self.verifiedKept { verified.claims.removeAll() }
            verified.claims[token] = claims
        }
        return identity
    }

    /// The claims' checks, in the order ``TokenRefusal`` lists them.
    private func check(_ claims: TokenClaims) throws(TokenRefusal) -> SyncIdentity {
        guard let expiry = claims.exp else { throw .missingExpiry }
        guard let user = claims.sub?.value, !user.isEmpty else { throw .missingSubject }
        let now = configuration.now()
        do {
            try expiry.verifyNotExpired(currentDate: now.addingTimeInterval(-configuration.leeway))
        } catch {
            throw .expired
        }
        if let notBefore = claims.nbf {
            do {
                try notBefore.verifyNotBefore(currentDate: now.addingTimeInterval(configuration.leeway))
            } catch {
                throw .notYetValid
            }
        }
        if let audience = configuration.audience, !(claims.aud?.value.contains(audience) ?? false) { throw .wrongAudience }
        if let issuer = configuration.issuer, claims.iss?.value != issuer { throw .wrongIssuer }
        return SyncIdentity(user: user, roles: Set(claims.roles ?? []), expiresAt: expiry.value)
    }
}
