import COpenSSL
import Foundation

/// PBKDF2-HMAC-SHA256 (RFC 8018), by OpenSSL's libcrypto.
///
/// ```swift
/// let key = try PBKDF2.sha256(password: passphrase, salt: salt, rounds: 600_000, length: 32)
/// ```
package enum PBKDF2 {
    package static func sha256(password: Data, salt: Data, rounds: Int, length: Int) throws -> Data {
        precondition(rounds > 0 && rounds <= Int(Int32.max) && length > 0, "PBKDF2 needs positive rounds and length")
        var key = Data(count: length)
        let result = password.withUnsafeBytes { password in
            salt.withUnsafeBytes { salt in
                key.withUnsafeMutableBytes { key in
                    PKCS5_PBKDF2_HMAC(
                        password.bindMemory(to: CChar.self).baseAddress, Int32(password.count),
                        salt.bindMemory(to: UInt8.self).baseAddress, Int32(salt.count),
                        Int32(rounds), EVP_sha256(), Int32(length), key.bindMemory(to: UInt8.self).baseAddress)
                }
            }
        }
        try CryptographyError.check(result, "PKCS5_PBKDF2_HMAC")
        return key
    }
}
