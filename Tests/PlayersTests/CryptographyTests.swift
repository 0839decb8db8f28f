import CipherDB
import Foundation
import Players
import PlayersFiles
import Testing

/// The primitives of the encrypted exports, and of CipherDB's passphrase
/// keys, against published known answers: RFC 7914 §11
/// (PBKDF2-HMAC-SHA256), RFC 6070 (PBKDF2-HMAC-SHA1), RFC 5869 appendix A.1
/// (HKDF-SHA256), and the GCM specification's test case 16 (AES-256-GCM
/// with additional data).
@Suite struct CryptographyTests {
    @Test func pbkdf2MatchesRFC7914() throws {
        #expect(try PBKDF2.sha256(password: Data("passwd".utf8), salt: Data("salt".utf8), rounds: 1, length: 64)
            == Data(hex: "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783"))
        #expect(try PBKDF2.sha256(password: Data("Password".utf8), salt: Data("NaCl".utf8), rounds: 80_000, length: 64)
            == Data(hex: "4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56a1d425a1225833549adb841b51c9b3176a272bdebba1d078478f62b397f33c8d"))
    }

    @Test func pbkdf2WithSHA1MatchesRFC6070() {
        func derive(_ password: String, _ salt: String, rounds: Int) -> Data {
            var key = Data(count: 20)
            let derived = Data(password.utf8).withUnsafeBytes { password in
                Data(salt.utf8).withUnsafeBytes { salt in
                    key.withUnsafeMutableBytes { PBKDF2.derive(.sha1, password: password, salt: salt, rounds: rounds, into: $0) }
                }
            }
            #expect(derived)
            return key
        }
        #expect(derive("password", "salt", rounds: 1) == Data(hex: "0c60c80f961f0e71f3a9b524af6012062fe037a6"))
        #expect(derive("password", "salt", rounds: 4096) == Data(hex: "4b007901b765489abead49d926f721d065a429c1"))
    }

    @Test func hkdfMatchesRFC5869() throws {
        let key = try HKDF.sha256(key: Data(repeating: 0x0B, count: 22), salt: Data(0x00...0x0C), info: Data(0xF0...0xF9), length: 42)
        #expect(key == Data(hex: "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"))
    }

    static let gcmKey = Data(hex: "feffe9928665731c6d6a8f9467308308feffe9928665731c6d6a8f9467308308")!
    static let gcmNonce = Data(hex: "cafebabefacedbaddecaf888")!
    static let gcmPlaintext = Data(hex: "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39")!
    static let gcmAdditionalData = Data(hex: "feedfacedeadbeeffeedfacedeadbeefabaddad2")!
    static let gcmBox = Data(hex: "cafebabefacedbaddecaf888"
        + "522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662"
        + "76fc6ece0f4e1768cddf8853bb2d551b")!

    @Test func aesGCMMatchesTheGCMSpecification() throws {
        #expect(try AESGCM.seal(Self.gcmPlaintext, key: Self.gcmKey, nonce: Self.gcmNonce, authenticating: Self.gcmAdditionalData)
            == Self.gcmBox)
        #expect(try AESGCM.open(Self.gcmBox, key: Self.gcmKey, authenticating: Self.gcmAdditionalData) == Self.gcmPlaintext)
    }

    /// Every byte of the box (nonce, ciphertext, tag) and of the additional
    /// data is authenticated, and so is the key.
    @Test func aesGCMRefusesAnyChange() {
        for index in Self.gcmBox.indices {
            var box = Self.gcmBox
            box[index] ^= 0x01
            #expect(throws: CryptographyError.authenticationFailed, "byte \(index)") {
                try AESGCM.open(box, key: Self.gcmKey, authenticating: Self.gcmAdditionalData)
            }
        }
        var additionalData = Self.gcmAdditionalData
        additionalData[0] ^= 0x80
        #expect(throws: CryptographyError.authenticationFailed) {
            try AESGCM.open(Self.gcmBox, key: Self.gcmKey, authenticating: additionalData)
        }
        var key = Self.gcmKey
        key[31] ^= 0x01
        #expect(throws: CryptographyError.authenticationFailed) {
            try AESGCM.open(Self.gcmBox, key: key, authenticating: Self.gcmAdditionalData)
        }
        #expect(throws: CryptographyError.authenticationFailed) {
            try AESGCM.open(Self.gcmBox.prefix(27), key: Self.gcmKey, authenticating: Self.gcmAdditionalData)
        }
    }

    @Test func aesGCMSealsEmptyPlaintextAndNeverReusesANonce() throws {
        let key = Data(repeating: 1, count: 32)
        let first = try AESGCM.seal(Data(), key: key, authenticating: Data())
        #expect(first.count == AESGCM.nonceLength + AESGCM.tagLength)
        #expect(try AESGCM.open(first, key: key, authenticating: Data()) == Data())
        let second = try AESGCM.seal(Data(), key: key, authenticating: Data())
        #expect(first.prefix(AESGCM.nonceLength) != second.prefix(AESGCM.nonceLength))
    }
}
