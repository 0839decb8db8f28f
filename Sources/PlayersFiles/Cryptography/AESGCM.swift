import COpenSSL
import Foundation

/// AES-256-GCM with a 96-bit nonce and a 128-bit tag, by OpenSSL's
/// libcrypto (NIST SP 800-38D). A sealed box is `nonce ‖ ciphertext ‖ tag`,
/// the layout swift-crypto calls "combined", which the exports of earlier
/// releases use.
///
/// ```swift
/// let box = try AESGCM.seal(plaintext, key: key, authenticating: header)
/// let plaintext = try AESGCM.open(box, key: key, authenticating: header)
/// ```
package enum AESGCM {
    package static let keyLength = 32
    package static let nonceLength = 12
    package static let tagLength = 16

    /// Encrypts `plaintext` under a 32-byte key and a random nonce (or the
    /// one given, for known-answer tests), authenticating `additionalData`.
    package static func seal(_ plaintext: Data, key: Data, nonce: Data? = nil, authenticating additionalData: Data) throws -> Data {
        precondition(key.count == keyLength, "AES-256 needs a 32-byte key")
        let nonce = nonce ?? randomBytes(nonceLength)
        precondition(nonce.count == nonceLength, "AES-GCM takes a 12-byte nonce here")
        let context = try CipherContext(encrypting: true, key: key, nonce: nonce, additionalData: additionalData)
        var box = nonce
        box.append(try context.update(plaintext))
        guard context.finish() else { throw CryptographyError.openSSL(function: "EVP_CipherFinal_ex") }
        var tag = Data(count: tagLength)
        try tag.withUnsafeMutableBytes { tag in
            try CryptographyError.check(
                EVP_CIPHER_CTX_ctrl(context.pointer, EVP_CTRL_GCM_GET_TAG, Int32(tagLength), tag.baseAddress),
                "EVP_CIPHER_CTX_ctrl(GET_TAG)")
        }
        box.append(tag)
        return box
    }

    /// Decrypts a box made by ``seal(_:key:nonce:authenticating:)``;
    /// throws ``CryptographyError/authenticationFailed`` when the key, the
    /// box or `additionalData` is not the one it was sealed with.
    package static func open(_ box: Data, key: Data, authenticating additionalData: Data) throws -> Data {
        precondition(key.count == keyLength, "AES-256 needs a 32-byte key")
        let box = Data(box) // indices from 0
        guard box.count >= nonceLength + tagLength else { throw CryptographyError.authenticationFailed }
        let context = try CipherContext(encrypting: false, key: key, nonce: box.prefix(nonceLength), additionalData: additionalData)
        let plaintext = try context.update(box[nonceLength..<(box.count - tagLength)])
        var tag = Data(box.suffix(tagLength))
        try tag.withUnsafeMutableBytes { tag in
            try CryptographyError.check(
                EVP_CIPHER_CTX_ctrl(context.pointer, EVP_CTRL_GCM_SET_TAG, Int32(tagLength), tag.baseAddress),
                "EVP_CIPHER_CTX_ctrl(SET_TAG)")
        }
        // The tag is checked here: anything but success is a wrong key or
        // a modified box, and the plaintext is dropped.
        guard context.finish() else { throw CryptographyError.authenticationFailed }
        return plaintext
    }

    /// `count` bytes from getrandom(2).
    static func randomBytes(_ count: Int) -> Data {
        var generator = SystemRandomNumberGenerator()
        return Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }
}

/// One EVP_CIPHER_CTX for AES-256-GCM in one direction, keyed and given
/// its additional data; freed (and cleansed by OpenSSL) with the value.
private final class CipherContext {
    let pointer: OpaquePointer

    /// The direction is set once, here: the EVP_Cipher* calls follow it.
    init(encrypting: Bool, key: Data, nonce: Data, additionalData: Data) throws {
        guard let pointer = EVP_CIPHER_CTX_new() else { throw CryptographyError.openSSL(function: "EVP_CIPHER_CTX_new") }
        self.pointer = pointer
        // The default IV length of EVP_aes_256_gcm is 12 bytes, the nonce's.
        let result = key.withUnsafeBytes { key in
            nonce.withUnsafeBytes { nonce in
                EVP_CipherInit_ex(pointer, EVP_aes_256_gcm(), nil, key.bindMemory(to: UInt8.self).baseAddress,
                                  nonce.bindMemory(to: UInt8.self).baseAddress, encrypting ? 1 : 0)
            }
        }
        try CryptographyError.check(result, "EVP_CipherInit_ex")
        var length: Int32 = 0
        try additionalData.withUnsafeBytes { data in
            try CryptographyError.check(
                EVP_CipherUpdate(pointer, nil, &length, data.bindMemory(to: UInt8.self).baseAddress, Int32(data.count)),
                "EVP_CipherUpdate(additional data)")
        }
    }

    /// Ends the stream: on decryption, this checks the tag set before.
    func finish() -> Bool {
        var length: Int32 = 0
        return EVP_CipherFinal_ex(pointer, nil, &length) == 1
    }

    /// The ciphertext or plaintext of `input`, in pieces that fit OpenSSL's
    /// `int` lengths (GCM is a stream mode: as long as the input).
    func update(_ input: Data) throws -> Data {
        var output = Data(count: input.count)
        let piece = 1 << 30
        try input.withUnsafeBytes { input in
            try output.withUnsafeMutableBytes { output in
                let source = input.bindMemory(to: UInt8.self), destination = output.bindMemory(to: UInt8.self)
                var offset = 0
                while offset < source.count {
                    let count = min(piece, source.count - offset)
                    var written: Int32 = 0
                    try CryptographyError.check(
                        EVP_CipherUpdate(pointer, destination.baseAddress! + offset, &written, source.baseAddress! + offset, Int32(count)),
                        "EVP_CipherUpdate")
                    guard Int(written) == count else { throw CryptographyError.openSSL(function: "EVP_CipherUpdate") }
                    offset += count
                }
            }
        }
        return output
    }
}
