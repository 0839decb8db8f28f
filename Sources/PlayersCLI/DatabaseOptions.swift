import ArgumentParser
import CipherDB
import Foundation
import Players

/// The options every subcommand accepts: where the database is, and where
/// its key comes from. There is no option that takes a passphrase itself:
/// it would show in `ps`.
struct DatabaseOptions: ParsableArguments {
    @Option(name: [.long, .customShort("d")], help: ArgumentHelp(
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

    /// Opens the existing database; never creates one.
    func openDatabase() throws -> (AppDatabase, ResolvedKey) {
        let url = databaseURL
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw CLIError.failure("there is no players database at \(url.path): run 'players init' to create one")
        }
        // Before the key is looked for: a plaintext file needs none, and
        // the advice is to import it.
        if DatabaseFileKind.isPlaintextSQLite(atPath: url.path) {
            throw CLIError.from(AppDatabaseError.plaintext(path: url.path))
        }
        let key = try resolveKey()
        do {
            return (try AppDatabase.open(at: url, key: key.source), key)
        } catch {
            throw CLIError.from(error)
        }
    }
}
