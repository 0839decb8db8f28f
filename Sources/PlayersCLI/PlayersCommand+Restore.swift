import AppCommandLine
import ArgumentParser
import CipherDB
import CommandLineBase
import Foundation
import Players
import PlayersFiles

extension PlayersCommand {
    struct Restore: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Replace the database with a backup.",
            discussion: """
                SRC is verified first, copied next to the database with the database's key and \
                verified again; the current database is kept as *.before-restore until the \
                restored one is verified in place, and put back if anything fails. SRC - reads \
                the backup from standard input, into a private temporary file next to the \
                database (a file named - is ./-).

                Example: players restore ~/players-backup.db
                """)

        @OptionGroup var options: DatabaseOptions

        @Argument(help: "The backup to restore, or - for standard input.")
        var source: String

        @Option(help: ArgumentHelp("The passphrase of the backup, if it differs (a file, mode 0600).", valueName: "file"))
        var fromPassphraseFile: String?

        @Option(help: ArgumentHelp("The raw key of the backup, if it differs (a file, mode 0600).", valueName: "file"))
        var fromKeyFile: String?

        @Flag(name: [.long, .customShort("q")], help: "Print no progress.")
        var quiet = false

        func validate() throws {
            if fromPassphraseFile != nil && fromKeyFile != nil {
                throw ValidationError("Give --from-passphrase-file or --from-key-file, not both.")
            }
        }

        func run() async throws {
            let fromStandardInput = source == StandardStream.argument
            if fromStandardInput { try StandardStream.checkInputIsNotATerminal(command: "players restore") }
            let url = options.databaseURL
            // The key must open it; the connections close at once, so that
            // the database is free for the swap.
            let (_, key) = try options.openDatabase()
            let backupKey = try DatabaseKeySource.file(key: fromKeyFile, passphrase: fromPassphraseFile) ?? key.source
            func restore(from backup: URL) throws {
                try DatabaseFileOperations.restore(backup, backupKey: backupKey, into: url, key: key.source)
            }
            do {
                try ProgressReporter(label: "Restore", quiet: quiet).whileRunning {
                    guard fromStandardInput else { return try restore(from: URL(fileURLWithPath: source)) }
                    try DatabaseFileOperations.withCopyOfStandardInput(next: url) { copy in
                        do {
                            try restore(from: copy)
                        } catch {
                            throw CLIError.from(error).replacing(copy.path, with: StandardStream.inputName)
                        }
                    }
                }
            } catch {
                throw CLIError.from(error)
            }
            print("Restored \(url.path) from \(fromStandardInput ? StandardStream.inputName : source).")
        }
    }
}
