import AppFiles
import Foundation
import JWTKit

/// The keys the server verifies tokens with, from `--jwt-key-file F`:
///
/// - a PEM public key (`-----BEGIN PUBLIC KEY-----`): ES256 (P-256) or
///   EdDSA (Ed25519), which the token's issuer signs with its private key;
/// - a JWKS (a file that begins with `{`: `{"keys": [...]}`) of ES256 and
///   EdDSA public keys, each with its `kid` and `alg`; a token must name
///   its key (`kid`). The server reads it again on SIGHUP, for rotation;
/// - otherwise an HS256 secret: the file's bytes without one final
///   newline, at least 32 of them, in a file that only its owner reads
///   (mode 0600).
///
/// Each key allows one algorithm (``algorithm(forKeyID:)``): jwt-kit binds
/// it to its key type, and a token of another algorithm is refused before
/// its signature is checked.
///
/// ```swift
/// let keys = try await TokenKeys(contentsOf: "/etc/players/jwt.pem")
/// ```
public struct TokenKeys: Sendable {
    /// What the file held.
    public enum Kind: String, Sendable {
        case secret = "HS256 secret", publicKey = "public key", keySet = "key set"
    }

    public let kind: Kind
    /// The key file: where ``TokenVerifier/reloadKeys()`` reads it again.
    public let path: String
    let collection: JWTKeyCollection
    /// The one algorithm of each key, by `kid`; nil for the one key of a
    /// file that is no key set.
    private let algorithms: [String?: String]

    /// Reads and checks the key file at `path`.
    public init(contentsOf path: String) async throws(TokenKeyFileError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .unreadable(path: path, reason: "no such file, or it is not readable")
        }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let collection = JWTKeyCollection()
        if text.hasPrefix("-----BEGIN") {
            if let key = try? ES256PublicKey(pem: text) {
                await collection.add(ecdsa: key)
                (kind, algorithms) = (.publicKey, [nil: "ES256"])
            } else if let key = try? EdDSA.PublicKey(pem: text) {
                await collection.add(eddsa: key)
                (kind, algorithms) = (.publicKey, [nil: "EdDSA"])
            } else {
                throw .unsupportedPublicKey(path: path)
            }
        } else if text.hasPrefix("{") {
            algorithms = try await Self.addKeySet(data, path: path, to: collection)
            kind = .keySet
        } else {
            let secret: Data
            do {
                secret = try SecretFiles.readSecret(path, kind: "JWT secret")
            } catch let error as DatabaseFileError {
                throw .secretFile(error)
            } catch {
                throw .unreadable(path: path, reason: "\(error)")
            }
            guard secret.count >= 32 else { throw .secretTooShort(path: path, bytes: secret.count) }
            await collection.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
            (kind, algorithms) = (.secret, [nil: "HS256"])
        }
        self.collection = collection
        self.path = path
    }

    /// Adds each key of a JWKS, checking that it has a `kid` and one of
    /// the algorithms taken; returns them by `kid`.
    private static func addKeySet(_ data: Data, path: String, to collection: JWTKeyCollection) async throws(TokenKeyFileError)
        -> [String?: String]
    {
        let keySet: JWKS
        do {
            keySet = try JSONDecoder().decode(JWKS.self, from: data)
        } catch {
            throw .invalidKeySet(path: path, reason: "\(error)")
        }
        var algorithms: [String?: String] = [:]
        for (index, key) in keySet.keys.enumerated() {
            guard let kid = key.keyIdentifier?.string, let algorithm = key.algorithm?.rawValue else {
                throw .keySetKeyUnnamed(path: path, index: index)
            }
            guard ["ES256", "EdDSA"].contains(algorithm) else {
                throw .keySetAlgorithmUnsupported(path: path, kid: kid, algorithm: algorithm)
            }
            do {
                // Never the default: a token whose kid is not in the set
                // is refused, not tried with another key.
                try await collection.add(jwk: key, isDefault: false)
            } catch {
                throw .invalidKeySet(path: path, reason: "the key \(kid): \(error)")
            }
            algorithms[kid] = algorithm
        }
        guard !algorithms.isEmpty else { throw .invalidKeySet(path: path, reason: "it holds no key") }
        return algorithms
    }

    /// The algorithm the key named `kid` allows; nil when no such key.
    /// Outside a key set, the one key, whatever `kid`.
    func algorithm(forKeyID kid: String?) -> String? {
        kind == .keySet ? kid.flatMap { algorithms[$0] } : algorithms[nil]
    }
}
