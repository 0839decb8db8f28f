import Foundation
import Synchronization

/// The key a passphrase derives for one database file, shared by the
/// connections of one configuration, so that PBKDF2 (about 30 ms) runs once
/// per file instead of once per connection: a pool's readers, and a
/// command that checks a file before it opens a pool on it, open with
/// SQLCipher's raw key syntax (key and salt) instead.
///
/// The key is SQLCipher 3's own derivation: PBKDF2-HMAC-SHA1 of the
/// passphrase with the file's salt (its first 16 bytes) and
/// `PRAGMA cipher_default_kdf_iter` rounds, 32 bytes. A file that does not
/// exist yet (or is shorter than its salt) is keyed with the passphrase, so
/// that SQLCipher chooses its salt; the next connection derives from it.
///
/// The cache holds one entry: the file's salt, the rounds, a fingerprint
/// of the passphrase (PBKDF2-HMAC-SHA256, one round, with a salt of this
/// cache's own) and the key. A passphrase that changes (after a rekey)
/// misses and derives again. The key is wiped when the configuration, and
/// so the pool, goes away; it is the key every open connection already
/// holds in SQLCipher's memory.
///
/// Safe to share across threads (`Sendable`): the entry is behind a mutex.
package final class PassphraseKeyCache: Sendable {
    private struct Entry {
        var salt: [UInt8]
        var rounds: Int
        var fingerprint: [UInt8]
        var key: [UInt8]

        mutating func wipe() {
            SQLSecrets.wipe(&fingerprint)
            SQLSecrets.wipe(&key)
        }
    }

    /// SQLCipher 3's key and salt sizes (AES-256, `FILE_HEADER_SZ`).
    static let keyLength = 32
    static let saltLength = 16

    private let fingerprintSalt: [UInt8]
    private let entry = Mutex<Entry?>(nil)
    /// Held while deriving: connections that open at once (a pool's first
    /// readers) wait for one derivation rather than each running their own.
    private let derivation = Mutex(())
    private let derivations = Atomic<Int>(0)

    package init() {
        var generator = SystemRandomNumberGenerator()
        fingerprintSalt = (0..<16).map { _ in generator.next() }
    }

    deinit {
        entry.withLock { $0?.wipe() }
    }

    /// How many times this cache ran PBKDF2 with a file's rounds.
    package var derivationCount: Int { derivations.load(ordering: .relaxed) }

    /// Calls `body` with what `sqlite3_key` takes for `passphrase` and the
    /// file with `salt`: `x'` + the key's and the salt's hexadecimal + `'`,
    /// derived at most once per passphrase, salt and rounds.
    func withKeyMaterial<T>(
        passphrase: UnsafeRawBufferPointer,
        salt: [UInt8],
        rounds: Int,
        _ body: (UnsafeRawBufferPointer) throws -> T) throws -> T
    {
        var fingerprint = try derive(.sha256, passphrase, salt: fingerprintSalt, rounds: 1)
        defer { SQLSecrets.wipe(&fingerprint) }
        var key = try cachedKey(salt: salt, rounds: rounds, fingerprint: fingerprint) ?? derivation.withLock { _ in
            // Another connection may have derived it while this one waited.
            if let key = cachedKey(salt: salt, rounds: rounds, fingerprint: fingerprint) { return key }
            let key = try derive(.sha1, passphrase, salt: salt, rounds: rounds)
            derivations.add(1, ordering: .relaxed)
            let newEntry = Entry(salt: salt, rounds: rounds, fingerprint: Self.copy(fingerprint), key: Self.copy(key))
            entry.withLock { entry in
                entry?.wipe()
                entry = newEntry
            }
            return key
        }
        defer { SQLSecrets.wipe(&key) }
        var material = SQLSecrets.rawKeySyntax(key, salt)
        defer { SQLSecrets.wipe(&material) }
        return try material.withUnsafeBytes(body)
    }

    /// A copy of the key of the entry, if it is the one for this salt,
    /// rounds and passphrase.
    private func cachedKey(salt: [UInt8], rounds: Int, fingerprint: [UInt8]) -> [UInt8]? {
        entry.withLock { entry in
            guard let entry, entry.salt == salt, entry.rounds == rounds, entry.fingerprint == fingerprint else { return nil }
            return Self.copy(entry.key)
        }
    }

    /// A copy in storage of its own: arrays share storage until written,
    /// and a wipe must reach the only copy of a secret.
    private static func copy(_ secret: [UInt8]) -> [UInt8] {
        secret.withUnsafeBufferPointer { Array($0) }
    }

    private func derive(_ digest: PBKDF2.Digest, _ passphrase: UnsafeRawBufferPointer, salt: [UInt8], rounds: Int) throws -> [UInt8] {
        var key = [UInt8](repeating: 0, count: Self.keyLength)
        let derived = salt.withUnsafeBytes { salt in
            key.withUnsafeMutableBytes { key in
                PBKDF2.derive(digest, password: passphrase, salt: salt, rounds: rounds, into: key)
            }
        }
        guard derived else {
            throw DatabaseError(resultCode: .SQLITE_NOMEM, message: "could not derive the database key: OpenSSL's PKCS5_PBKDF2_HMAC failed")
        }
        return key
    }
}
