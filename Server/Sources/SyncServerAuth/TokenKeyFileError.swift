import AppFiles

/// Why `--jwt-key-file` cannot be used: the server does not start. The
/// description never shows the file's content.
public enum TokenKeyFileError: Error, Equatable, Sendable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    /// An HS256 secret in a file others may read, or empty: refused as
    /// every secret file of the project.
    case secretFile(DatabaseFileError)
    /// An HS256 secret of fewer than 32 bytes (without one final newline).
    case secretTooShort(path: String, bytes: Int)
    /// A PEM file that holds no ES256 (P-256) or EdDSA (Ed25519) public key.
    case unsupportedPublicKey(path: String)
    /// A JSON file that is no key set (`{"keys": [...]}`) of keys jwt-kit reads.
    case invalidKeySet(path: String, reason: String)
    /// A key of the set without `kid`, or without `alg`: tokens choose a
    /// key by its id, and each key allows one algorithm.
    case keySetKeyUnnamed(path: String, index: Int)
    case keySetAlgorithmUnsupported(path: String, kid: String, algorithm: String)
    /// Signing (`players-server token`) needs an HS256 secret.
    case cannotSign(path: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            "cannot read the JWT key file \(path): \(reason)"
        case .secretFile(let error):
            error.description
        case .secretTooShort(let path, let bytes):
            "the JWT key file \(path) holds an HS256 secret of \(bytes) bytes: give one of at least 32 random bytes "
                + "(for example 'openssl rand -hex 32 > \(path)'), or a PEM public key, or a JWKS"
        case .unsupportedPublicKey(let path):
            "the JWT key file \(path) holds no ES256 (P-256) or EdDSA (Ed25519) public key in PEM: give one of those, an HS256 secret, or a JWKS"
        case .invalidKeySet(let path, let reason):
            "the JWT key file \(path) is not a key set ({\"keys\": [...]}): \(reason)"
        case .keySetKeyUnnamed(let path, let index):
            "key \(index + 1) of the key set \(path) has no kid or no alg: every key needs both, so that a token names its key"
        case .keySetAlgorithmUnsupported(let path, let kid, let algorithm):
            "the key \(kid) of the key set \(path) allows \(algorithm): only ES256 and EdDSA keys are taken"
        case .cannotSign(let path):
            "the JWT key file \(path) holds a public key or a key set: signing a token needs the HS256 secret"
        }
    }
}
