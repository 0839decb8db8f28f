import AppFiles
import ArgumentParser
import CipherDB
import Foundation

/// The key of the server's database, for `serve` and `backup`: a key
/// file, a passphrase file, or `PLAYERS_PASSPHRASE`, as for `players`.
struct ServerKeyOptions: ParsableArguments {
    @Option(help: ArgumentHelp("A raw 256-bit key, as 64 hexadecimal digits (mode 0600).", valueName: "file"))
    var keyFile: String?

    @Option(help: ArgumentHelp("A passphrase; the file's bytes, without one final newline (mode 0600).", valueName: "file"))
    var passphraseFile: String?

    func validate() throws {
        if keyFile != nil && passphraseFile != nil { throw ValidationError("Give --key-file or --passphrase-file, not both.") }
    }

    /// Whether a key is given, by an option or the environment.
    var isGiven: Bool {
        keyFile != nil || passphraseFile != nil || DatabaseKeySource.environmentPassphrase() != nil
    }

    /// The key, read now: a file that cannot be read (missing, readable by
    /// others, empty) throws its `DatabaseFileError`, a failure.
    func keySource() throws -> DatabaseKeySource {
        guard let source = try DatabaseKeySource.file(key: keyFile, passphrase: passphraseFile) ?? .environmentPassphrase() else {
            throw ValidationError("The database needs --key-file, --passphrase-file or PLAYERS_PASSPHRASE.")
        }
        return source
    }
}
