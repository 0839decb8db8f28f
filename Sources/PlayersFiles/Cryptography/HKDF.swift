import COpenSSL
import Foundation

/// HKDF-SHA256, extract then expand (RFC 5869), by OpenSSL's libcrypto.
///
/// ```swift
/// let key = try HKDF.sha256(key: rawKey, salt: salt, info: label, length: 32)
/// ```
package enum HKDF {
    package static func sha256(key inputKey: Data, salt: Data, info: Data, length: Int) throws -> Data {
        guard let context = EVP_PKEY_CTX_new_id(EVP_PKEY_HKDF, nil) else {
            throw CryptographyError.openSSL(function: "EVP_PKEY_CTX_new_id(HKDF)")
        }
        defer { EVP_PKEY_CTX_free(context) }
        try CryptographyError.check(EVP_PKEY_derive_init(context), "EVP_PKEY_derive_init")
        try CryptographyError.check(EVP_PKEY_CTX_set_hkdf_md(context, EVP_sha256()), "EVP_PKEY_CTX_set_hkdf_md")
        try salt.withUnsafeBytes { salt in
            try CryptographyError.check(
                EVP_PKEY_CTX_set1_hkdf_salt(context, salt.bindMemory(to: UInt8.self).baseAddress, Int32(salt.count)),
                "EVP_PKEY_CTX_set1_hkdf_salt")
        }
        try inputKey.withUnsafeBytes { inputKey in
            try CryptographyError.check(
                EVP_PKEY_CTX_set1_hkdf_key(context, inputKey.bindMemory(to: UInt8.self).baseAddress, Int32(inputKey.count)),
                "EVP_PKEY_CTX_set1_hkdf_key")
        }
        try info.withUnsafeBytes { info in
            try CryptographyError.check(
                EVP_PKEY_CTX_add1_hkdf_info(context, info.bindMemory(to: UInt8.self).baseAddress, Int32(info.count)),
                "EVP_PKEY_CTX_add1_hkdf_info")
        }
        var key = Data(count: length)
        var derived = length
        try key.withUnsafeMutableBytes { key in
            try CryptographyError.check(
                EVP_PKEY_derive(context, key.bindMemory(to: UInt8.self).baseAddress, &derived), "EVP_PKEY_derive")
        }
        guard derived == length else { throw CryptographyError.openSSL(function: "EVP_PKEY_derive") }
        return key
    }
}
