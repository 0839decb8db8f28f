import CipherDB
import Foundation
import Players

extension DatabaseOptions {
    /// Where the key comes from, without the interactive prompt and the
    /// default key file: what `init` accepts as an explicit choice.
    func explicitKey() throws -> ResolvedKey? {
        if let source = try DatabaseKeySource.file(key: keyFile, passphrase: passphraseFile) {
            return ResolvedKey(source: source, origin: keyFile != nil ? "key file" : "passphrase file")
        }
        return DatabaseKeySource.environmentPassphrase(environment).map { ResolvedKey(source: $0, origin: "PLAYERS_PASSPHRASE") }
    }

    /// The default key file, read, when it exists.
    private func defaultKey() throws -> ResolvedKey? {
        let defaultKeyURL = SecretFiles.defaultKeyURL(environment: environment)
        guard FileManager.default.fileExists(atPath: defaultKeyURL.path) else { return nil }
        return ResolvedKey(source: try .keyFile(defaultKeyURL.path), origin: "default key file")
    }

    /// The key, from the first source that gives one: `--key-file`,
    /// `--passphrase-file`, `PLAYERS_PASSPHRASE`, a prompt on a terminal,
    /// then the default key file.
    func resolveKey() throws -> ResolvedKey {
        if let key = try explicitKey() { return key }
        let hasDefaultKey = FileManager.default.fileExists(atPath: SecretFiles.defaultKeyURL(environment: environment).path)
        if Terminal.isInteractive && !hasDefaultKey {
            guard let passphrase = Terminal.readSecret(prompt: "Passphrase for \(databaseURL.path): "), !passphrase.isEmpty else {
                throw CLIError.failure("no passphrase was entered")
            }
            return ResolvedKey(source: .passphrase(text: passphrase), origin: "prompt")
        }
        if let key = try defaultKey() { return key }
        throw CLIError.failure(
            "no key for \(databaseURL.path): give --key-file or --passphrase-file, set PLAYERS_PASSPHRASE, or run 'players init' first")
    }

    /// The key of a new database: the one given, or the default key file,
    /// created with a new random key if needed (then returned too).
    func keyForNewDatabase() throws -> (ResolvedKey, createdKeyFile: URL?) {
        if let key = try explicitKey() ?? defaultKey() { return (key, nil) }
        let keyURL = SecretFiles.defaultKeyURL(environment: environment)
        let key = try SecretFiles.createKey(at: keyURL)
        return (ResolvedKey(source: .rawKey { key }, origin: "default key file"), keyURL)
    }
}
