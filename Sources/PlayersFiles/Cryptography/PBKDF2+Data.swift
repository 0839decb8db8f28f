import CipherDB
import Foundation

extension PBKDF2 {
    /// PBKDF2-HMAC-SHA256 of `password`, as `Data`.
    ///
    /// ```swift
    /// let key = try PBKDF2.sha256(password: passphrase, salt: salt, rounds: 600_000, length: 32)
    /// ```
    package static func sha256(password: Data, salt: Data, rounds: Int, length: Int) throws -> Data {
        var key = Data(count: length)
        let derived = password.withUnsafeBytes { password in
            salt.withUnsafeBytes { salt in
                key.withUnsafeMutableBytes { key in
                    derive(.sha256, password: password, salt: salt, rounds: rounds, into: key)
                }
            }
        }
        guard derived else { throw CryptographyError.openSSL(function: "PKCS5_PBKDF2_HMAC") }
        return key
    }
}
