import CipherDB
import Foundation

/// The keys that the players tools take from files and the environment.
/// Files are read at once, so that one that cannot be read (see
/// ``SecretFiles``) is reported before any work, and the bytes are given
/// to each connection as it opens.
extension DatabaseKeySource {
    /// The raw key of a key file: 64 hexadecimal digits, mode 0600.
    public static func keyFile(_ path: String) throws -> DatabaseKeySource {
        let key = try SecretFiles.readKey(path)
        return .rawKey { key }
    }

    /// The passphrase of a passphrase file: its bytes, without one final
    /// newline, mode 0600.
    public static func passphraseFile(_ path: String) throws -> DatabaseKeySource {
        let passphrase = try SecretFiles.readPassphrase(path)
        return .passphrase { passphrase }
    }

    /// The key of `keyFile` or of `passphraseFile`, whichever is given
    /// (options that exclude each other), or nil when neither is.
    public static func file(key keyFile: String?, passphrase passphraseFile: String?) throws -> DatabaseKeySource? {
        if let keyFile { return try .keyFile(keyFile) }
        if let passphraseFile { return try .passphraseFile(passphraseFile) }
        return nil
    }

    /// A text passphrase, typed or set in the environment: its UTF-8
    /// bytes, the same as a passphrase file holding that text.
    public static func passphrase(text: String) -> DatabaseKeySource {
        let passphrase = Data(text.utf8)
        return .passphrase { passphrase }
    }

    /// `PLAYERS_PASSPHRASE`, or nil when it is not set or empty.
    public static func environmentPassphrase(
        _ environment: [String: String] = ProcessInfo.processInfo.environment) -> DatabaseKeySource?
    {
        guard let text = environment["PLAYERS_PASSPHRASE"], !text.isEmpty else { return nil }
        return .passphrase(text: text)
    }
}
