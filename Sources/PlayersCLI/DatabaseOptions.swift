import AppCommandLine
import ArgumentParser
import CipherDB
import Foundation
import Players
import PlayersFiles
import PlayersShared

/// The options every subcommand accepts: where the database is, and where
/// its key comes from. There is no option that takes a passphrase itself:
/// it would show in `ps`.
struct DatabaseOptions: ParsableArguments {
    @Option(name: [.long, .customShort("d")], help: ArgumentHelp(
        "The database file (default: $PLAYERS_DATABASE, or $XDG_DATA_HOME/players/players.db).",
        valueName: "path"), completion: .file())
    var database: String?

    @Option(name: .long, help: ArgumentHelp(
        "A file holding a raw 256-bit key as 64 hexadecimal digits (mode 0600).", valueName: "file"),
        completion: .file())
    var keyFile: String?

    @Option(name: .long, help: ArgumentHelp(
        "A file holding the passphrase: its bytes, without one final newline (mode 0600).", valueName: "file"),
        completion: .file())
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

    /// The database file, which must exist, be a file, and not be a
    /// plaintext SQLite database: the first check of every command that
    /// opens an existing database, before any key is looked for (a
    /// plaintext file needs none).
    func existingDatabaseURL() throws -> URL {
        let url = databaseURL
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw CLIError.failure("there is no players database at \(url.path): run 'players init' to create one")
        }
        guard !isDirectory.boolValue else {
            throw CLIError.failure("\(url.path) is a directory, not a database file: give the database's file with --database")
        }
        if DatabaseFileKind.isPlaintextSQLite(atPath: url.path) {
            // The advice is `players encrypt` only when it would import
            // the file: its own check says.
            do {
                try DatabaseFileOperations.checkPlaintextImport(url)
            } catch is DatabaseError {
                // Unreadable as plaintext after all: the general advice.
            } catch {
                // Its schema or its players are refused.
                throw CLIError.wrongKey("\(url.path) is a plaintext SQLite database, not an encrypted players database, "
                    + "and 'players encrypt' cannot import it (\(error)): give the path of an encrypted players database")
            }
            throw CLIError.from(AppDatabaseError.plaintext(path: url.path))
        }
        return url
    }

    /// Opens the existing database; never creates one.
    func openDatabase() throws -> (AppDatabase, ResolvedKey) {
        let url = try existingDatabaseURL()
        let key = try resolveKey()
        do {
            return (try AppDatabase.open(at: url, key: key.source), key)
        } catch {
            throw openingError(error, key: key)
        }
    }
}
