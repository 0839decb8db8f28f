import AppCommandLine
import ArgumentParser
import CipherDB
import Foundation
import Players
import PlayersFiles

/// The key of a copy: `--to-passphrase-file`, `--to-key-file`, or
/// `--plaintext`; by default, the key of the database.
struct TargetKeyOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Encrypt the copy with the passphrase in this file: its bytes, without one final newline (mode 0600).", valueName: "file"))
    var toPassphraseFile: String?

    @Option(help: ArgumentHelp("Encrypt the copy with the raw key in this file (64 hex digits, mode 0600).", valueName: "file"))
    var toKeyFile: String?

    @Flag(help: "Write the copy unencrypted (a warning is printed).")
    var plaintext = false

    func validate() throws {
        let choices = [toPassphraseFile != nil, toKeyFile != nil, plaintext].filter { $0 }.count
        if choices > 1 {
            throw ValidationError("Give one of --to-passphrase-file, --to-key-file and --plaintext.")
        }
    }

    /// The key of the copy: the one given, `.plaintext` (with a warning),
    /// or by default the key of the database.
    func destinationKey(default databaseKey: ResolvedKey) throws -> DatabaseKeySource? {
        if plaintext {
            Terminal.printError("players: warning: the copy is NOT encrypted: anyone who can read it can read every player")
            return .plaintext
        }
        return try DatabaseKeySource.file(key: toKeyFile, passphrase: toPassphraseFile) ?? databaseKey.source
    }
}

extension TargetKeyOptions {
    /// The key and passphrase files of the copy.
    var secretFiles: [URL] {
        [toKeyFile, toPassphraseFile].compactMap { $0.map(URL.init(fileURLWithPath:)) }
    }
}

/// Refuses, before any work, a destination that is the database, one of
/// its files or a key file (even with `--force`), and an existing copy
/// without `--force`.
func checkDestination(_ destination: String, force: Bool, options: DatabaseOptions, target: TargetKeyOptions) throws {
    do {
        try DatabaseFileOperations.checkDestination(
            URL(fileURLWithPath: destination), replacing: true,
            protecting: [options.databaseURL], files: options.secretFiles + target.secretFiles)
    } catch let error as DatabaseFileError {
        throw CLIError.failure(error.description)
    }
    if !force && FileManager.default.fileExists(atPath: destination) {
        throw CLIError.failure("\(destination) already exists: choose another name, or pass --force to replace it")
    }
}
