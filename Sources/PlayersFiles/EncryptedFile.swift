import CipherDB
import Foundation
import Players

/// A file encrypted with AES-256-GCM, for exports that are not databases
/// (JSON). The AES key is derived from the passphrase with PBKDF2-HMAC-SHA256,
/// or from the raw key with HKDF-SHA256 (never the raw key itself, which
/// also keys the database), with a random salt.
///
/// Format (all integers big-endian):
///
/// | bytes | content |
/// | --- | --- |
/// | 0–7 | `CDBENC01` (passphrase) or `CDBENC02` (raw key) |
/// | 8 | key derivation: 1 PBKDF2-HMAC-SHA256 (version 1), 2 HKDF-SHA256 (version 2); 0 the raw key itself (version 1, read only) |
/// | 9–12 | PBKDF2 rounds: 600,000 written, 600,000 to 2,000,000 read; 0 for a raw key |
/// | 13–28 | salt (zeros in version 1 raw-key files) |
/// | 29–40 | AES-GCM nonce |
/// | 41–(n-17) | ciphertext |
/// | last 16 | AES-GCM tag |
///
/// Bytes 0–28 (``EncryptedFileHeader``) are authenticated with the
/// ciphertext, and checked before any key derivation.
///
/// See <https://csrc.nist.gov/pubs/sp/800/38/d/final> (GCM),
/// <https://www.rfc-editor.org/rfc/rfc8018> (PBKDF2) and
/// <https://www.rfc-editor.org/rfc/rfc5869> (HKDF).
public enum EncryptedFile {
    /// OWASP's 2023 recommendation for PBKDF2-HMAC-SHA256.
    public static let passphraseRounds: UInt32 = 600_000

    /// The one error for a file that cannot be decrypted: not an export, a
    /// header no writer produced, a wrong key, or a modified file. The
    /// header is only authenticated with the key, so it cannot be trusted
    /// to tell these apart.
    static let unreadable = PlayersFileError.exportUnreadable

    /// Encrypts `plaintext` with the key.
    public static func seal(_ plaintext: Data, key: DatabaseKeySource) throws -> Data {
        let header = EncryptedFileHeader.new(for: key)
        let headerBytes = header.bytes
        do {
            return headerBytes + (try AESGCM.seal(plaintext, key: try header.symmetricKey(for: key), authenticating: headerBytes))
        } catch let error as CryptographyError {
            throw PlayersFileError.encryptionFailed("\(error)")
        }
    }

    /// Decrypts a file made by ``seal(_:key:)`` (or by an earlier release);
    /// a wrong key, a modified file or a header that no writer produced is
    /// refused with ``unreadable``, before any key derivation for a header.
    public static func open(_ file: Data, key: DatabaseKeySource) throws -> Data {
        let file = Data(file) // indices from 0
        guard file.count >= EncryptedFileHeader.length + 12 + 16,
              let header = EncryptedFileHeader(parsing: file) else { throw unreadable }
        let symmetricKey = try header.symmetricKey(for: key)
        do {
            return try AESGCM.open(file.suffix(from: EncryptedFileHeader.length), key: symmetricKey,
                                   authenticating: file.prefix(EncryptedFileHeader.length))
        } catch CryptographyError.authenticationFailed {
            throw unreadable
        } catch {
            throw PlayersFileError.decryptionFailed("\(error)")
        }
    }
}
