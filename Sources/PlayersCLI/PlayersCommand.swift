import AppCommandLine
import ArgumentParser
import CommandLineBase
import Foundation

/// `players`: the command line of the encrypted Players database.
@main
struct PlayersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "players",
        abstract: "Manage an encrypted database of players.",
        discussion: """
            The database is encrypted with SQLCipher. Its key comes from, in this order: \
            --key-file, --passphrase-file, the PLAYERS_PASSPHRASE environment variable, a \
            prompt when standard input is a terminal, then the key file that 'players init' \
            creates ($XDG_CONFIG_HOME/players/key). No option takes a passphrase itself.

            Exit codes: 0 success, 1 the operation failed, 2 usage error, \
            3 wrong passphrase or key (or not an encrypted players database or export), 4 verification failed, \
            5 the sync server could not be reached, failed, or sent an invalid answer, 6 the sync server holds \
            another database than the one this one synced with, 130 or 143 a sync \
            interrupted by Ctrl-C or SIGTERM.

            The options --database (-d), --key-file and --passphrase-file may also come before the \
            command's name: 'players -d other.db list'. 'players version' (or --version, -v) prints the version.
            """,
        // Handled before parsing (runCommandLine); declared for help and
        // shell completions.
        version: VersionReport.line(command: "players"),
        subcommands: [
            Init.self, List.self, Add.self, Edit.self, Delete.self, Randomize.self,
            Backup.self, Restore.self, Export.self, Decrypt.self, Encrypt.self, Rekey.self, Info.self, Verify.self,
            Sync.self, Conflicts.self, Remote.self, Schema.self, Docs.self, Version.self,
        ])

    /// The options that may come before the command's name
    /// (``globalOptions``), declared here too so that help and shell
    /// completions know them (`players -d <TAB>` completes a file):
    /// ``CommandLineArguments`` moves them after the name, where the
    /// command reads them.
    @OptionGroup var databaseOptions: DatabaseOptions

    /// The options every subcommand takes, which may also come before its
    /// name, with whether each takes a value.
    static let globalOptions = ["--database": true, "-d": true, "--key-file": true, "--passphrase-file": true]

    /// Runs the command, and maps every error to one line on standard
    /// error (and for a usage error, a second line saying where to read
    /// more) and its documented exit code.
    static func main() async {
        if let error = invalidArgumentError() {
            Terminal.printError("players: \(error.description)")
            Foundation.exit(error.exitCode)
        }
        await runCommandLine(program: "players", globalOptions: globalOptions, printError: Terminal.printError) { error in
            let cliError = CLIError.from(error)
            return (cliError.description, cliError.exitCode)
        }
    }
}
