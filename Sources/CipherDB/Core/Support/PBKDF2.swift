import COpenSSL

/// PBKDF2 (RFC 8018) by OpenSSL's libcrypto, the library SQLCipher itself
/// derives its keys with: SQLCipher's own derivation (HMAC-SHA1) and the
/// encrypted exports' (HMAC-SHA256) share this one call.
///
/// ```swift
/// var key = [UInt8](repeating: 0, count: 32)
/// let derived = key.withUnsafeMutableBytes { key in
///     PBKDF2.derive(.sha1, password: password, salt: salt, rounds: 64_000, into: key)
/// }
/// ```
package enum PBKDF2 {
    /// The HMAC's hash function.
    package enum Digest: Sendable {
        case sha1
        case sha256
    }

    /// Fills `key` with the key that `password` and `salt` derive. Returns
    /// false when libcrypto fails (out of memory), leaving `key` undefined.
    package static func derive(
        _ digest: Digest,
        password: UnsafeRawBufferPointer,
        salt: UnsafeRawBufferPointer,
        rounds: Int,
        into key: UnsafeMutableRawBufferPointer) -> Bool
    {
        precondition(rounds > 0 && rounds <= Int(Int32.max) && key.count > 0, "PBKDF2 needs positive rounds and length")
        let hash = switch digest {
        case .sha1: EVP_sha1()
        case .sha256: EVP_sha256()
        }
        return PKCS5_PBKDF2_HMAC(
            password.bindMemory(to: CChar.self).baseAddress, Int32(password.count),
            salt.bindMemory(to: UInt8.self).baseAddress, Int32(salt.count),
            Int32(rounds), hash, Int32(key.count), key.bindMemory(to: UInt8.self).baseAddress) == 1
    }
}
