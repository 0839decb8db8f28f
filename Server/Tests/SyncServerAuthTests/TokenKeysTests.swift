import Foundation
import JWTKit
import SyncServerAuth
import TestSupport
import Testing

/// What `--jwt-key-file` may hold, and the sentence of each file refused.
@Suite struct TokenKeysTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    func file(_ text: String, mode: Int = 0o600) throws -> String {
        let path = folder.path("jwt.key")
        try #require(FileManager.default.createFile(atPath: path, contents: Data(text.utf8), attributes: [.posixPermissions: mode]))
        return path
    }

    func error(_ text: String, mode: Int = 0o600) async throws -> TokenKeyFileError? {
        let path = try file(text, mode: mode)
        do {
            _ = try await TokenKeys(contentsOf: path)
            return nil
        } catch {
            return error
        }
    }

    @Test func aSecretOfFewerThan32BytesIsRefused() async throws {
        let path = folder.path("jwt.key")
        #expect(try await error(String(repeating: "x", count: 31) + "\n") == .secretTooShort(path: path, bytes: 31))
        #expect(try await error(String(repeating: "x", count: 32) + "\n") == nil)
    }

    /// A secret is a secret: a file that others may read is refused, as
    /// every key file of the project is.
    @Test func aSecretReadableByOthersIsRefused() async throws {
        let refused = try await error(String(repeating: "x", count: 40), mode: 0o644)
        #expect(refused?.description == "the JWT secret file \(folder.path("jwt.key")) can be read by other users: "
                + "run 'chmod 600 \(folder.path("jwt.key"))' and try again")
    }

    @Test func aPublicKeyMayBeReadByAnyone() async throws {
        let keys = try await TokenKeys(contentsOf: try file(ES256PrivateKey().publicKey.pemRepresentation, mode: 0o644))
        #expect(keys.kind == .publicKey)
    }

    @Test func aPEMThatIsNoES256OrEdDSAPublicKeyIsRefused() async throws {
        let path = folder.path("jwt.key")
        #expect(try await error("-----BEGIN PUBLIC KEY-----\nAAAA\n-----END PUBLIC KEY-----\n") == .unsupportedPublicKey(path: path))
    }

    @Test func aKeySetKeyWithoutAnIDOrAnAlgorithmIsRefused() async throws {
        let key = ES256PrivateKey().publicKey.parameters!
        let path = folder.path("jwt.key")
        let withoutID = #"{"keys":[{"kty":"EC","crv":"P-256","alg":"ES256","x":"\#(key.x)","y":"\#(key.y)"}]}"#
        #expect(try await error(withoutID, mode: 0o644) == .keySetKeyUnnamed(path: path, index: 0))
        let withoutAlgorithm = #"{"keys":[{"kty":"EC","crv":"P-256","kid":"one","x":"\#(key.x)","y":"\#(key.y)"}]}"#
        #expect(try await error(withoutAlgorithm, mode: 0o644) == .keySetKeyUnnamed(path: path, index: 0))
        guard case .invalidKeySet? = try await error(#"{"keys":[]}"#, mode: 0o644) else {
            Issue.record("an empty key set was taken")
            return
        }
    }

    @Test func onlyASecretSigns() async throws {
        let secret = try await TokenKeys(contentsOf: try file(String(repeating: "k", count: 40)))
        #expect(try await !secret.signedToken(user: "alice", roles: [], lifetime: 60, audience: nil, issuer: nil).isEmpty)
        let publicKey = try await TokenKeys(contentsOf: try file(ES256PrivateKey().publicKey.pemRepresentation, mode: 0o644))
        await #expect(throws: TokenKeyFileError.cannotSign(path: folder.path("jwt.key"))) {
            try await publicKey.signedToken(user: "alice", roles: [], lifetime: 60, audience: nil, issuer: nil)
        }
    }
}
