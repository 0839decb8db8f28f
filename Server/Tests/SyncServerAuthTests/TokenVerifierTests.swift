import Foundation
import JWTKit
import SyncServerAuth
import TestSupport
import Synchronization
import Testing

/// Each token `--auth jwt` must refuse says why (``TokenRefusal``), and a
/// good one gives its user and roles; with each kind of key file. The
/// tokens are signed by jwt-kit with the tests' keys, or written by hand
/// where no library would sign them (`alg: none`).
@Suite struct TokenVerifierTests {
    let folder: TemporaryFolder
    let secret = String(repeating: "s3cr3t-", count: 6)
    /// The tests' clock: tokens are dated from it.
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    init() throws {
        folder = try TemporaryFolder()
    }

    /// The claims a test signs: a user, an hour to live, unless changed.
    struct Claims: JWTPayload {
        var sub: SubjectClaim? = "alice"
        var exp: ExpirationClaim? = ExpirationClaim(value: TokenVerifierTests.now.addingTimeInterval(3_600))
        var nbf: NotBeforeClaim?
        var aud: AudienceClaim?
        var iss: IssuerClaim?
        var roles: [String]? = ["editor"]

        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    func file(_ name: String, _ text: String, mode: Int = 0o600) throws -> String {
        let path = folder.path(name)
        try #require(FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: mode]))
        return path
    }

    func verifier(_ path: String, audience: String? = nil, issuer: String? = nil) async throws -> TokenVerifier {
        TokenVerifier(keys: try await TokenKeys(contentsOf: path),
                      configuration: .init(audience: audience, issuer: issuer, now: { Self.now }))
    }

    func secretVerifier(audience: String? = nil, issuer: String? = nil) async throws -> TokenVerifier {
        try await verifier(try file("jwt.secret", secret + "\n"), audience: audience, issuer: issuer)
    }

    func hs256(_ claims: Claims = Claims(), secret: String? = nil, kid: String? = nil) async throws -> String {
        let keys = await JWTKeyCollection().add(hmac: HMACKey(from: secret ?? self.secret), digestAlgorithm: .sha256)
        return try await keys.sign(claims, kid: kid.map { JWKIdentifier(string: $0) })
    }

    func refusal(_ verifier: TokenVerifier, _ token: String?) async -> TokenRefusal? {
        do {
            _ = try await verifier.identity(bearing: token)
            return nil
        } catch {
            return error
        }
    }

    static func base64URL(_ text: String) -> String {
        Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    @Test func aTokenSignedWithTheSecretGivesItsUserAndRoles() async throws {
        let identity = try await secretVerifier().identity(bearing: try await hs256())
        #expect(identity.user == "alice")
        #expect(identity.roles == ["editor"])
        #expect(identity.expiresAt == Self.now.addingTimeInterval(3_600))
    }

    @Test func noTokenIsMissingAndGarbageIsMalformed() async throws {
        let verifier = try await secretVerifier()
        #expect(await refusal(verifier, nil) == .missing)
        #expect(await refusal(verifier, "") == .missing)
        #expect(await refusal(verifier, "not.a.token") == .malformed)
        #expect(await refusal(verifier, "abc") == .malformed)
    }

    /// `alg: none` with the claims of a good token and no signature.
    @Test func anUnsignedTokenIsRefused() async throws {
        let payload = #"{"sub":"alice","exp":\#(Int(Self.now.timeIntervalSince1970) + 3_600)}"#
        for algorithm in ["none", "None", "NONE"] {
            let token = Self.base64URL(#"{"alg":"\#(algorithm)","typ":"JWT"}"#) + "." + Self.base64URL(payload) + "."
            #expect(await refusal(try await secretVerifier(), token) == .unsigned)
        }
    }

    @Test func aTokenSignedWithAnotherSecretIsABadSignature() async throws {
        let token = try await hs256(secret: String(repeating: "other-", count: 8))
        #expect(await refusal(try await secretVerifier(), token) == .badSignature)
    }

    /// A token whose claims were changed after signing.
    @Test func anAlteredTokenIsABadSignature() async throws {
        let parts = try await hs256().split(separator: ".").map(String.init)
        let forged = #"{"sub":"mallory","exp":\#(Int(Self.now.timeIntervalSince1970) + 3_600)}"#
        let token = [parts[0], Self.base64URL(forged), parts[2]].joined(separator: ".")
        #expect(await refusal(try await secretVerifier(), token) == .badSignature)
    }

    /// Algorithm confusion: an HS256 token whose secret is the server's
    /// public key, which anyone has.
    @Test func anHS256TokenSignedWithThePublicKeyIsRefusedForItsAlgorithm() async throws {
        let publicKey = ES256PrivateKey().publicKey.pemRepresentation
        let verifier = try await verifier(try file("jwt.pem", publicKey, mode: 0o644))
        #expect(await refusal(verifier, try await hs256(secret: publicKey)) == .algorithmNotAllowed)
        #expect(await refusal(verifier, try await hs256(secret: publicKey.trimmingCharacters(in: .newlines))) == .algorithmNotAllowed)
    }

    @Test func anES256TokenIsVerifiedWithThePublicKeyAndRefusedByAnother() async throws {
        let key = ES256PrivateKey()
        let token = try await JWTKeyCollection().add(ecdsa: key).sign(Claims())
        let verifier = try await verifier(try file("jwt.pem", key.publicKey.pemRepresentation, mode: 0o644))
        #expect(try await verifier.identity(bearing: token).user == "alice")
        let other = try await JWTKeyCollection().add(ecdsa: ES256PrivateKey()).sign(Claims())
        #expect(await refusal(verifier, other) == .badSignature)
        // An HS256 secret does not take an ES256 token.
        #expect(await refusal(try await secretVerifier(), token) == .algorithmNotAllowed)
    }

    @Test func anEdDSATokenIsVerifiedWithThePublicKey() async throws {
        let key = try EdDSA.PrivateKey()
        let token = try await JWTKeyCollection().add(eddsa: key).sign(Claims())
        let verifier = try await verifier(try file("jwt.pem", key.publicKey.pemRepresentation, mode: 0o644))
        #expect(try await verifier.identity(bearing: token).roles == ["editor"])
    }

    @Test func theClaimsAreCheckedWithTheServersClockAndLeeway() async throws {
        let verifier = try await secretVerifier()
        func refusal(_ change: (inout Claims) -> Void) async throws -> TokenRefusal? {
            var claims = Claims()
            change(&claims)
            return await self.refusal(verifier, try await hs256(claims))
        }
        #expect(try await refusal { $0.exp = nil } == .missingExpiry)
        #expect(try await refusal { $0.sub = nil } == .missingSubject)
        #expect(try await refusal { $0.sub = "" } == .missingSubject)
        #expect(try await refusal { $0.exp = ExpirationClaim(value: Self.now.addingTimeInterval(-61)) } == .expired)
        // Within the 60 s of leeway: a clock a little behind the issuer's.
        #expect(try await refusal { $0.exp = ExpirationClaim(value: Self.now.addingTimeInterval(-59)) } == nil)
        #expect(try await refusal { $0.nbf = NotBeforeClaim(value: Self.now.addingTimeInterval(61)) } == .notYetValid)
        #expect(try await refusal { $0.nbf = NotBeforeClaim(value: Self.now.addingTimeInterval(59)) } == nil)
    }

    @Test func theAudienceAndIssuerAreCheckedWhenConfigured() async throws {
        let verifier = try await secretVerifier(audience: "players", issuer: "https://id.example")
        var claims = Claims()
        #expect(await refusal(verifier, try await hs256(claims)) == .wrongAudience)
        claims.aud = AudienceClaim(value: ["other", "players"])
        #expect(await refusal(verifier, try await hs256(claims)) == .wrongIssuer)
        claims.iss = "https://id.example"
        #expect(await refusal(verifier, try await hs256(claims)) == nil)
    }

    /// Under a key set, a token names its key; the set is read again for
    /// a rotation, and the keys in use stay when the new file is broken.
    @Test func aKeySetChoosesTheKeyByItsIDAndIsReadAgainOnReload() async throws {
        let (first, second) = (ES256PrivateKey(), ES256PrivateKey())
        func jwks(_ keys: [(String, ES256PrivateKey)]) throws -> String {
            let set = JWKS(keys: keys.map { kid, key in
                JWK.ecdsa(.es256, identifier: JWKIdentifier(string: kid), x: key.publicKey.parameters!.x,
                          y: key.publicKey.parameters!.y, curve: .p256)
            })
            return String(decoding: try JSONEncoder().encode(set), as: UTF8.self)
        }
        func token(_ key: ES256PrivateKey, kid: String?) async throws -> String {
            try await JWTKeyCollection().add(ecdsa: key).sign(Claims(), kid: kid.map { JWKIdentifier(string: $0) })
        }
        let path = try file("jwks.json", try jwks([("one", first)]), mode: 0o644)
        let verifier = try await verifier(path)
        #expect(verifier.keyKind == .keySet)
        #expect(try await verifier.identity(bearing: try await token(first, kid: "one")).user == "alice")
        #expect(await refusal(verifier, try await token(first, kid: nil)) == .unknownKey)
        #expect(await refusal(verifier, try await token(second, kid: "two")) == .unknownKey)
        #expect(await refusal(verifier, try await token(second, kid: "one")) == .badSignature)
        try Data(try jwks([("two", second)]).utf8).write(to: URL(fileURLWithPath: path))
        try await verifier.reloadKeys()
        #expect(try await verifier.identity(bearing: try await token(second, kid: "two")).user == "alice")
        #expect(await refusal(verifier, try await token(first, kid: "one")) == .unknownKey)
        try Data("{".utf8).write(to: URL(fileURLWithPath: path))
        await #expect(throws: TokenKeyFileError.self) { try await verifier.reloadKeys() }
        #expect(try await verifier.identity(bearing: try await token(second, kid: "two")).user == "alice")
    }

    /// A token's signature is verified once, and its claims at each use:
    /// a token verified before expires all the same, and one verified with
    /// keys read again since is verified again.
    @Test func aTokenVerifiedOnceIsCheckedAtEachUseAndVerifiedAgainAfterAReload() async throws {
        let clock = Mutex(Self.now)
        let path = try file("jwt.secret", secret + "\n")
        let verifier = TokenVerifier(keys: try await TokenKeys(contentsOf: path), configuration: .init(now: { clock.withLock { $0 } }))
        let token = try await hs256()
        #expect(try await verifier.identity(bearing: token).user == "alice")
        #expect(try await verifier.identity(bearing: token).user == "alice")
        clock.withLock { $0 = Self.now.addingTimeInterval(7_200) }
        #expect(await refusal(verifier, token) == .expired)
        clock.withLock { $0 = Self.now }
        try Data((String(repeating: "rotated-", count: 5) + "\n").utf8).write(to: URL(fileURLWithPath: path))
        try await verifier.reloadKeys()
        #expect(await refusal(verifier, token) == .badSignature)
    }
}
