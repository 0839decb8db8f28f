import Foundation

/// Where the key of an encrypted database comes from: a passphrase or a
/// raw 256-bit key, loaded each time a connection needs it, so that it
/// stays in memory no longer than needed.
///
/// One source keys every connection of a configuration, and the databases
/// attached with ``Database/attachDatabase(atPath:as:key:)``:
///
/// ```swift
/// let key = DatabaseKeySource.rawKey { try loadKey() }
/// var config = Configuration()
/// key.configure(&config)
/// let dbPool = try DatabasePool(path: path, configuration: config)
/// ```
///
/// The bytes CipherDB copies from the key are wiped once SQLCipher has
/// them; the `Data` that `load` returns is yours.
///
/// See <https://www.zetetic.net/sqlcipher/sqlcipher-api/#key>.
public enum DatabaseKeySource: Sendable {
    /// A passphrase, as bytes, used as they are (a text passphrase is its
    /// UTF-8 bytes). Its key is derived with PBKDF2 (about 30 ms) once per
    /// file for all the connections of a configuration, not once per
    /// connection: see ``configure(_:)``.
    case passphrase(@Sendable () throws -> Data)
    /// A raw 32-byte key, used without key derivation: opening costs
    /// microseconds.
    case rawKey(@Sendable () throws -> Data)
}

extension DatabaseKeySource {
    /// Keys every connection that `configuration` opens: adds a
    /// ``Configuration/prepareDatabase(_:)`` function that loads the key
    /// and gives it to SQLCipher, first thing.
    ///
    /// A passphrase's key is derived once per file and kept, for as long
    /// as the configuration (and so the pool) lives, by the configuration's
    /// connections: a pool's readers open in microseconds instead of
    /// 30 ms each. The key is SQLCipher's own derivation, with the file's
    /// salt and `PRAGMA cipher_default_kdf_iter` rounds, so a file opens
    /// with the same passphrase in any SQLCipher 3 program. A connection
    /// whose `prepareDatabase` then sets `PRAGMA kdf_iter` fails to open
    /// with `SQLITE_MISUSE`: such a file takes
    /// ``Database/usePassphrase(_:)-(String)``, which derives per
    /// connection.
    public func configure(_ configuration: inout Configuration) {
        configure(&configuration, cache: PassphraseKeyCache())
    }

    /// ``configure(_:)`` with a given cache, whose derivations tests count.
    package func configure(_ configuration: inout Configuration, cache: PassphraseKeyCache) {
        configuration.prepareDatabase { db in try db.useKey(self, cache: cache) }
    }

    /// Whether the source gives a raw key rather than a passphrase.
    public var isRawKey: Bool {
        if case .rawKey = self { return true }
        return false
    }

    /// Loads the key and calls `body` with the bytes that `sqlite3_key` and
    /// `ATTACH … KEY` take: a passphrase's bytes, or the `x'…'` form of a
    /// raw key (64 hexadecimal digits), which is wiped when `body` returns.
    ///
    /// - throws: `SQLITE_MISUSE` for a raw key that is not 32 bytes long,
    ///   and whatever loading the key throws.
    ///
    /// See <https://www.zetetic.net/sqlcipher/sqlcipher-api/#key> (raw key data).
    public func withKeyMaterial<T>(_ body: (UnsafeRawBufferPointer) throws -> T) throws -> T {
        switch self {
        case .passphrase(let load):
            return try load().withUnsafeBytes(body)
        case .rawKey(let load):
            return try SQLSecrets.withRawKeyMaterial(load(), body)
        }
    }
}

extension Optional where Wrapped == DatabaseKeySource {
    /// No key: a plaintext database, where a key source is optional (an
    /// attached database, a copy). Only ever given explicitly.
    public static var plaintext: DatabaseKeySource? { nil }
}
