import ArgumentParser
import CipherDB
import Foundation
import Players
import PlayersCommandLine
import PlayersFiles

extension PlayersCommand {
    struct Restore: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Replace the database with a backup.",
            discussion: """
                SRC is verified first, copied next to the database with the database's key and \
                verified again; the current database is kept as *.before-restore until the \
                restored one is verified in place, and put back if anything fails.
                """)

        @OptionGroup var options: DatabaseOptions

        @Argument(help: "The backup to restore.")
        var source: String

        @Option(help: ArgumentHelp("The passphrase of the backup, if it differs (a file, mode 0600).", valueName: "file"))
        var fromPassphraseFile: String?

        @Option(help: ArgumentHelp("The raw key of the backup, if it differs (a file, mode 0600).", valueName: "file"))
        var fromKeyFile: String?

        @Flag(help: "Print no progress.")
        var quiet = false

        func validate() throws {
            if fromPassphraseFile != nil && fromKeyFile != nil {
                throw ValidationError("Give --from-passphrase-file or --from-key-file, not both.")
            }
        }

        func run() async throws {
            let url = options.databaseURL
            // The key must open it; the connections close at once, so that
            // the database is free for the swap.
            let (_, key) = try options.openDatabase()
            let backupKey = try DatabaseKeySource.file(key: fromKeyFile, passphrase: fromPassphraseFile) ?? key.source
            do {
                try ProgressReporter(label: "Restore", quiet: quiet).whileRunning {
                    try DatabaseFileOperations.restore(URL(fileURLWithPath: source), backupKey: backupKey, into: url, key: key.source)
                }
            } catch {
                throw CLIError.from(error)
            }
            print("Restored \(url.path) from \(source).")
        }
    }
}
