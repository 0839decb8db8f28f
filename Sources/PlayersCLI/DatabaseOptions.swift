import ArgumentParser
import CipherDB
import Foundation
import Players

/// The options every subcommand accepts: where the database is, and where
/// its key comes from. There is no option that takes a passphrase itself:
/// it would show in `ps`.
struct DatabaseOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The database file (default: $PLAYERS_DATABASE, or $XDG_DATA_HOME/players/players.db).",
        valueName: "path"))
    var database: String?

    @Option(name: .long, help: ArgumentHelp(
        "A file holding a raw 256-bit key as 64 hexadecimal digits (mode 0600).", valueName: "file"))
    var keyFile: String?

    @Option(name: .long, help: ArgumentHelp(
        "A file holding the passphrase: its bytes, without one final newline (mode 0600).", valueName: "file"))
    var passphraseFile: String?

    func validate() throws {
        if keyFile != nil && passphraseFile != nil {
            throw ValidationError("Give --key-file or --passphrase-file, not both.")
        }
    }

    var environment: [String: String] { ProcessInfo.processInfo.environment }

    /// The database file.
    var databaseURL: URL {
        if let database { return URL(fileURLWithPath: database) }
        if let path = environment["PLAYERS_DATABASE"], !path.isEmpty { return URL(fileURLWithPath: path) }
        return AppDatabase.defaultDatabaseURL(environment: environment)
    }

    /// The key and passphrase files that the command may read, the default
    /// key file included: a copy must never replace them.
    var secretFiles: [URL] {
        [keyFile, passphraseFile].compactMap { $0.map(URL.init(fileURLWithPath:)) }
            + [SecretFiles.defaultKeyURL(environment: environment)]
    }

    /// Where the key comes from, without the interactive prompt and the
    /// default key file: what `init` accepts as an explicit choice.
    func explicitKey() throws -> ResolvedKey? {
        if let keyFile {
            return .rawKey(try SecretFiles.readKey(keyFile), origin: "key file")
        }
        if let passphraseFile {
            return .passphrase(try SecretFiles.readPassphrase(passphraseFile), origin: "passphrase file")
        }
        if let passphrase = environment["PLAYERS_PASSPHRASE"], !passphrase.isEmpty {
            return .passphrase(Data(passphrase.utf8), origin: "PLAYERS_PASSPHRASE")
        }
        return nil
    }

    /// The key, from the first source that gives one: `--key-file`,
    /// `--passphrase-file`, `PLAYERS_PASSPHRASE`, a prompt on a terminal,
    /// then the default key file.
    func resolveKey() throws -> ResolvedKey {
        if let key = try explicitKey() { return key }
        let defaultKeyURL = SecretFiles.defaultKeyURL(environment: environment)
        let hasDefaultKey = FileManager.default.fileExists(atPath: defaultKeyURL.path)
        if Terminal.isInteractive && !hasDefaultKey {
            guard let passphrase = Terminal.readSecret(prompt: "Passphrase for \(databaseURL.path): "), !passphrase.isEmpty else {
                throw CLIError.failure("no passphrase was entered")
            }
            return .passphrase(Data(passphrase.utf8), origin: "prompt")
        }
        if hasDefaultKey {
            return .rawKey(try SecretFiles.readKey(defaultKeyURL.path), origin: "default key file")
        }
        throw CLIError.failure(
            "no key for \(databaseURL.path): give --key-file or --passphrase-file, set PLAYERS_PASSPHRASE, or run 'players init' first")
    }

    /// Opens the existing database; never creates one.
    func openDatabase() throws -> (AppDatabase, ResolvedKey) {
        let url = databaseURL
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw CLIError.failure("there is no players database at \(url.path): run 'players init' to create one")
        }
        let key = try resolveKey()
        do {
            return (try AppDatabase.open(at: url, key: key.source), key)
        } catch {
            throw CLIError.from(error)
        }
    }
}

/// A key, and where it came from (for `info`, never the key itself).
enum ResolvedKey {
    /// The passphrase's bytes: a file's as they are, or the UTF-8 of a
    /// text typed or set in the environment.
    case passphrase(Data, origin: String)
    case rawKey(Data, origin: String)

    var source: DatabaseKeySource {
        switch self {
        case .passphrase(let passphrase, _): return .passphrase { passphrase }
        case .rawKey(let key, _): return .rawKey { key }
        }
    }

    var isRawKey: Bool {
        if case .rawKey = self { return true }
        return false
    }

    var origin: String {
        switch self {
        case .passphrase(_, let origin), .rawKey(_, let origin): return origin
        }
    }
}
