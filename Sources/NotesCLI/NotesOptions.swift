import AppFiles
import ArgumentParser
import CipherDB
import Foundation
import Notes

/// Where the database is, and its key: the options every subcommand takes.
/// No option takes a passphrase itself: it would show in `ps`.
struct NotesOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The encrypted notes database.", valueName: "path"), completion: .file())
    var database: String?

    @Option(help: ArgumentHelp("A file holding the passphrase: its bytes, without one final newline (mode 0600).", valueName: "file"),
            completion: .file())
    var passphraseFile: String?

    @Option(help: ArgumentHelp("A file holding a raw 256-bit key as 64 hexadecimal digits (mode 0600).", valueName: "file"),
            completion: .file())
    var keyFile: String?

    func validate() throws {
        if keyFile != nil && passphraseFile != nil {
            throw ValidationError("Give --passphrase-file or --key-file, not both.")
        }
    }

    /// The database's path and key, both required.
    func location() throws -> (path: String, key: DatabaseKeySource) {
        guard let database else { throw ValidationError("Missing --database: the notes database to use.") }
        guard let key = try DatabaseKeySource.file(key: keyFile, passphrase: passphraseFile) else {
            throw ValidationError("Missing --passphrase-file or --key-file: the database's key.")
        }
        return (database, key)
    }

    /// The existing database.
    func open() throws -> NotesDatabase {
        let (path, key) = try location()
        return try NotesDatabase.open(atPath: path, key: key)
    }
}
