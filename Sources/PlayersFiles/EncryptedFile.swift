import _CryptoExtras
import Crypto
import Foundation
import Players

/// A file encrypted with AES-256-GCM, for exports that are not databases
/// (JSON). The key is the raw 256-bit key, or is derived from the
/// passphrase with PBKDF2-HMAC-SHA256 and a random salt.
///
/// Format (all integers big-endian):
///
/// | bytes | content |
/// | --- | --- |
/// | 0–7 | `CDBENC01` |
/// | 8 | key derivation: 0 raw key, 1 PBKDF2-HMAC-SHA256 |
/// | 9–12 | PBKDF2 rounds (0 for a raw key) |
/// | 13–28 | salt (zeros for a raw key) |
/// | 29–40 | AES-GCM nonce |
/// | 41–(n-17) | ciphertext |
/// | last 16 | AES-GCM tag |
///
/// Bytes 0–28 are authenticated with the ciphertext.
///
/// See <https://csrc.nist.gov/pubs/sp/800/38/d/final> (GCM) and
/// <https://www.rfc-editor.org/rfc/rfc8018> (PBKDF2).
public enum EncryptedFile {
    static let magic = Data("CDBENC01".utf8)
    /// OWASP's 2023 recommendation for PBKDF2-HMAC-SHA256.
    public static let passphraseRounds: UInt32 = 600_000

    /// Encrypts `plaintext` with the key.
    public static func seal(_ plaintext: Data, key: DatabaseKeySource) throws -> Data {
        var header = magic
        let symmetricKey: SymmetricKey
        switch key {
        case .rawKey(let load):
            let raw = try load()
            guard raw.count == 32 else { throw DatabaseFileError("a raw key must be 32 bytes long") }
            symmetricKey = SymmetricKey(data: raw)
            header.append(0)
            header.append(contentsOf: bigEndianBytes(UInt32(0)))
            header.append(Data(count: 16))
        case .passphrase(let load):
            var salt = Data(count: 16)
            var generator = SystemRandomNumberGenerator()
            for index in salt.indices { salt[index] = UInt8.random(in: 0...255, using: &generator) }
            symmetricKey = try derive(passphrase: try load(), salt: salt, rounds: passphraseRounds)
            header.append(1)
            header.append(contentsOf: bigEndianBytes(passphraseRounds))
            header.append(salt)
        }
        let sealed = try AES.GCM.seal(plaintext, using: symmetricKey, authenticating: header)
        guard let combined = sealed.combined else { throw DatabaseFileError("cannot encrypt the file") }
        return header + combined
    }

    /// Decrypts a file made by ``seal(_:key:)``; a wrong key or a modified
    /// file is refused.
    public static func open(_ file: Data, key: DatabaseKeySource) throws -> Data {
        let file = Data(file) // indices from 0
        guard file.count >= 29 + 12 + 16, file.prefix(8) == magic else {
            throw DatabaseFileError("the file is not an encrypted players export")
        }
        let header = file.prefix(29)
        let rounds = file[9..<13].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let salt = file[13..<29]
        let symmetricKey: SymmetricKey
        switch (file[8], key) {
        case (0, .rawKey(let load)):
            symmetricKey = SymmetricKey(data: try load())
        case (1, .passphrase(let load)):
            symmetricKey = try derive(passphrase: try load(), salt: salt, rounds: rounds)
        case (0, .passphrase), (1, .rawKey):
            throw DatabaseFileError("the file was encrypted with a \(file[8] == 0 ? "raw key" : "passphrase"): give that instead")
        default:
            throw DatabaseFileError("the file uses an unknown key derivation")
        }
        do {
            let box = try AES.GCM.SealedBox(combined: file.suffix(from: 29))
            return try AES.GCM.open(box, using: symmetricKey, authenticating: header)
        } catch {
            throw DatabaseFileError("the key is wrong, or the file was modified")
        }
    }

    private static func derive(passphrase: String, salt: Data, rounds: UInt32) throws -> SymmetricKey {
        var bytes = Array(passphrase.utf8)
        defer { for index in bytes.indices { bytes[index] = 0 } }
        return try KDF.Insecure.PBKDF2.deriveKey(
            from: bytes, salt: salt, using: .sha256, outputByteCount: 32, unsafeUncheckedRounds: Int(rounds))
    }

    private static func bigEndianBytes(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}
