import CipherDB
import Foundation
import Players

/// The 29 bytes that start an ``EncryptedFile``: the format version, how
/// the AES-GCM key is derived, and the parameters of that derivation.
///
/// A header is read strictly, before any key derivation: only the
/// combinations that the writers of each version produced are accepted,
/// so that a forged header cannot make the reader spend minutes deriving
/// a key (PBKDF2 rounds) or use a key the writer never would.
struct EncryptedFileHeader: Equatable {
    /// How the AES-GCM key comes from the key the user gives.
    enum KeyDerivation: UInt8 {
        /// Version 1 only (read, no longer written): the raw key itself.
        case rawKey = 0
        /// PBKDF2-HMAC-SHA256 of the passphrase, with the rounds and salt.
        case pbkdf2 = 1
        /// Version 2: HKDF-SHA256 of the raw key, with the salt and
        /// ``EncryptedFileHeader/exportKeyLabel``.
        case hkdf = 2
    }

    static let length = 29
    /// The magic without its last character, the version digit.
    static let magicPrefix = Data("CDBENC0".utf8)
    /// The rounds a passphrase file may ask for: what the writer uses, up
    /// to a few times more for a future writer; nothing that would let a
    /// forged header stall the reader.
    static let acceptedPassphraseRounds: ClosedRange<UInt32> = EncryptedFile.passphraseRounds...2_000_000
    /// HKDF's info: the export key of a raw key is never the raw key
    /// itself, nor any key derived for another purpose.
    static let exportKeyLabel = Data("CipherDB players JSON export v2: AES-256-GCM key".utf8)

    /// 1 (`CDBENC01`) or 2 (`CDBENC02`).
    let version: UInt8
    let derivation: KeyDerivation
    /// PBKDF2 rounds; 0 for a raw key.
    let rounds: UInt32
    /// 16 bytes: random, or zeros in version 1 raw-key files.
    let salt: Data

    /// The header of a new file for `key`: version 1 with PBKDF2 for a
    /// passphrase (readable by earlier releases), version 2 with HKDF for a
    /// raw key.
    static func new(for key: DatabaseKeySource) -> EncryptedFileHeader {
        let salt = AESGCM.randomBytes(16)
        switch key {
        case .passphrase:
            return EncryptedFileHeader(version: 1, derivation: .pbkdf2, rounds: EncryptedFile.passphraseRounds, salt: salt)
        case .rawKey:
            return EncryptedFileHeader(version: 2, derivation: .hkdf, rounds: 0, salt: salt)
        }
    }

    init(version: UInt8, derivation: KeyDerivation, rounds: UInt32, salt: Data) {
        self.version = version
        self.derivation = derivation
        self.rounds = rounds
        self.salt = salt
    }

    /// The header at the start of `file`, or nil when it is not one that a
    /// writer produced.
    init?(parsing file: Data) {
        let file = Data(file) // indices from 0
        guard file.count >= Self.length, file.prefix(7) == Self.magicPrefix,
              let derivation = KeyDerivation(rawValue: file[8]) else { return nil }
        let version = file[7] &- UInt8(ascii: "0")
        let rounds = file[9..<13].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let salt = file[13..<29]
        switch (version, derivation) {
        case (1, .rawKey): guard rounds == 0, salt.allSatisfy({ $0 == 0 }) else { return nil }
        case (1, .pbkdf2): guard Self.acceptedPassphraseRounds.contains(rounds) else { return nil }
        case (2, .hkdf): guard rounds == 0 else { return nil }
        default: return nil
        }
        self.init(version: version, derivation: derivation, rounds: rounds, salt: Data(salt))
    }

    /// The 29 bytes, authenticated with the ciphertext.
    var bytes: Data {
        var bytes = Self.magicPrefix
        bytes.append(UInt8(ascii: "0") + version)
        bytes.append(derivation.rawValue)
        bytes.append(contentsOf: [UInt8(rounds >> 24), UInt8(rounds >> 16 & 0xFF), UInt8(rounds >> 8 & 0xFF), UInt8(rounds & 0xFF)])
        bytes.append(salt)
        return bytes
    }

    /// The AES-256-GCM key of the file, from the key the user gives.
    func symmetricKey(for key: DatabaseKeySource) throws -> Data {
        do {
            switch (derivation, key) {
            case (.rawKey, .rawKey(let load)):
                return try Self.checkedRawKey(load())
            case (.hkdf, .rawKey(let load)):
                return try HKDF.sha256(key: try Self.checkedRawKey(load()), salt: salt, info: Self.exportKeyLabel,
                                       length: AESGCM.keyLength)
            case (.pbkdf2, .passphrase(let load)):
                return try PBKDF2.sha256(password: try load(), salt: salt, rounds: Int(rounds), length: AESGCM.keyLength)
            case (.pbkdf2, .rawKey):
                throw PlayersFileError.exportNeedsPassphrase
            case (.rawKey, .passphrase), (.hkdf, .passphrase):
                throw PlayersFileError.exportNeedsKeyFile
            }
        } catch let error as CryptographyError {
            throw PlayersFileError.keyDerivationFailed("\(error)")
        }
    }

    private static func checkedRawKey(_ key: Data) throws -> Data {
        guard key.count == 32 else { throw PlayersFileError.rawKeyLength }
        return key
    }
}
