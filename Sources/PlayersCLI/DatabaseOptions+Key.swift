import AppCommandLine
import CipherDB
import Foundation
import Players

extension DatabaseOptions {
    /// Where the key comes from, without the interactive prompt and the
    /// default key file: what `init` accepts as an explicit choice.
    func explicitKey() throws -> ResolvedKey? {
        if let source = try DatabaseKeySource.file(key: keyFile, passphrase: passphraseFile) {
            return ResolvedKey(source: source, origin: keyFile != nil ? .keyFile : .passphraseFile)
        }
        return DatabaseKeySource.environmentPassphrase(environment).map { ResolvedKey(source: $0, origin: .environment) }
    }

    /// The default key file, read, when it exists.
    private func defaultKey() throws -> ResolvedKey? {
        let defaultKeyURL = SecretFiles.defaultKeyURL(environment: environment)
        guard FileManager.default.fileExists(atPath: defaultKeyURL.path) else { return nil }
        return ResolvedKey(source: try .keyFile(defaultKeyURL.path), origin: .defaultKeyFile)
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
            return ResolvedKey(source: .passphrase(text: passphrase), origin: .prompt)
        }
        if let key = try defaultKey() { return key }
        throw CLIError.failure(
            "no key for \(databaseURL.path): give --key-file or --passphrase-file, set PLAYERS_PASSPHRASE, or run 'players init' first")
    }

    /// The key of a new database: the one given, or the default key file;
    /// without one, if `asking` (for `init`), a new passphrase asked twice
    /// on a terminal (as the commands after it will ask, there being no
    /// default key file); else, or when the answer is empty or there is no
    /// terminal, a new random key in the default key file (then returned
    /// too).
    func keyForNewDatabase(asking: Bool = false) throws -> (ResolvedKey, createdKeyFile: URL?) {
        if let key = try explicitKey() ?? defaultKey() { return (key, nil) }
        if asking && Terminal.isInteractive {
            let prompt = "New passphrase for \(databaseURL.path) (empty for a random key in a key file): "
            guard let passphrase = Terminal.readSecret(prompt: prompt) else {
                throw CLIError.failure("no passphrase was entered: nothing was created")
            }
            if !passphrase.isEmpty {
                guard Terminal.readSecret(prompt: "The same passphrase again: ") == passphrase else {
                    throw CLIError.failure("the two passphrases differ: nothing was created")
                }
                return (ResolvedKey(source: .passphrase(text: passphrase), origin: .prompt), nil)
            }
        }
        let keyURL = SecretFiles.defaultKeyURL(environment: environment)
        let key = try SecretFiles.createKey(at: keyURL)
        return (ResolvedKey(source: .rawKey { key }, origin: .defaultKeyFile), keyURL)
    }

    /// What `init` and `encrypt` print after the database's line: where a
    /// new random key was written, or that the key is the passphrase typed.
    static func newKeyNotice(_ key: ResolvedKey, createdKeyFile: URL?) -> String? {
        if let createdKeyFile {
            return "Its key is in \(createdKeyFile.path): keep a copy of it in a safe place."
        }
        if key.origin == .prompt {
            return "Its key is the passphrase you entered: the commands ask for it on a terminal, or read it with --passphrase-file."
        }
        return nil
    }

    /// The CLI error of a failure to open the database with `key`. When
    /// the key does not open the file and came from the default key file,
    /// which the user did not name, it says so and how to give another.
    func openingError(_ error: any Error, key: ResolvedKey) -> CLIError {
        let isKeyMismatch = switch error {
        case let error as AppDatabaseError: error.isKeyMismatch
        case let error as DatabaseError: error.resultCode == .SQLITE_NOTADB
        default: false
        }
        guard isKeyMismatch, key.origin == .defaultKeyFile else { return CLIError.from(error) }
        return .wrongKey("the default key file, \(SecretFiles.defaultKeyURL(environment: environment).path), does not open "
            + "\(databaseURL.path): the file has another key, or is not an encrypted players database; "
            + "give its key with --key-file, --passphrase-file or PLAYERS_PASSPHRASE")
    }
}
