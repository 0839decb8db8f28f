import AppCommandLine
import ArgumentParser
import CipherDB
import CommandLineBase
import Foundation
import Players
import PlayersFiles

extension PlayersCommand {
    struct Rekey: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Encrypt the database with a new passphrase or key.",
            discussion: """
                The database is exported with the new key to a temporary file, verified, then \
                renamed over the database: an interruption leaves it with the old key or the new \
                one, never neither. No other process may use the database meanwhile. Afterwards \
                the old key no longer opens it: use the new one (--passphrase-file or --key-file).

                Example: players rekey --to-passphrase-file new-passphrase
                """)

        @OptionGroup var options: DatabaseOptions

        @Option(help: ArgumentHelp("The new passphrase, in a file (mode 0600).", valueName: "file"))
        var toPassphraseFile: String?

        @Option(help: ArgumentHelp("The new raw key, in a file (64 hex digits, mode 0600).", valueName: "file"))
        var toKeyFile: String?

        @Flag(name: [.long, .customShort("q")], help: "Print no progress.")
        var quiet = false

        func validate() throws {
            guard (toPassphraseFile != nil) != (toKeyFile != nil) else {
                throw ValidationError("Give --to-passphrase-file or --to-key-file.")
            }
        }

        func run() async throws {
            let url = options.databaseURL
            // The old key must open it; the connections close at once, so
            // that the database is free for the swap.
            let (_, oldKey) = try options.openDatabase()
            guard let newKey = try DatabaseKeySource.file(key: toKeyFile, passphrase: toPassphraseFile) else {
                throw ValidationError("Give --to-passphrase-file or --to-key-file.")
            }
            do {
                try ProgressReporter(label: "Rekey", quiet: quiet).whileRunning {
                    try DatabaseFileOperations.rekey(url, from: oldKey.source, to: newKey)
                }
                // Only now report success: the new key opens it, the old one does not.
                try AppDatabase.open(at: url, key: newKey).close()
                if let old = try? AppDatabase.open(at: url, key: oldKey.source) {
                    try? old.close()
                    throw CLIError.failure("the old key still opens \(url.path): the rekey did not take effect")
                }
            } catch {
                throw CLIError.from(error)
            }
            print("Rekeyed \(url.path): use the new \(toKeyFile != nil ? "key" : "passphrase") from now on.")
        }
    }
}
