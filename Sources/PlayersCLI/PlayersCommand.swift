import ArgumentParser
import Foundation
import PlayersCommandLine

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
            5 the sync server could not be reached, failed, or sent an invalid answer.

            The options --database (-d), --key-file and --passphrase-file may also come before the \
            command's name: 'players -d other.db list'. 'players --version' prints the version.
            """,
        subcommands: [
            Init.self, List.self, Add.self, Edit.self, Delete.self, Randomize.self,
            Backup.self, Restore.self, Export.self, Decrypt.self, Encrypt.self, Rekey.self, Info.self, Verify.self,
            Sync.self, Conflicts.self, Remote.self,
        ])

    /// The options every subcommand takes, which may also come before its
    /// name, with whether each takes a value.
    static let globalOptions = ["--database": true, "-d": true, "--key-file": true, "--passphrase-file": true]

    /// Runs the command, and maps every error to one line on standard
    /// error (and for a usage error, a second line saying where to read
    /// more) and its documented exit code.
    static func main() async {
        do {
            if let error = invalidArgumentError() { throw error }
            let arguments = Array(CommandLine.arguments.dropFirst())
            if arguments.first == "--version" {
                print(VersionReport.line(command: "players"))
                return
            }
            let normalized: [String]
            do {
                normalized = try CommandLineArguments(root: self, globalOptions: globalOptions).normalized(arguments)
            } catch let error as UnknownWordError {
                throw CLIError.usage(error.description)
            }
            var command = try parseAsRoot(normalized)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let error as CLIError {
            Terminal.printError("players: \(error.description)")
            Foundation.exit(error.exitCode)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                exit(withError: error) // --help, --generate-completion-script
            }
            if code == .validationFailure || error is ValidationError {
                usageErrorLines(for: error, program: "players").forEach(Terminal.printError)
                Foundation.exit(ExitStatus.usage)
            }
            if let exitCode = error as? ExitCode {
                Foundation.exit(exitCode.rawValue)
            }
            let cliError = CLIError.from(error)
            Terminal.printError("players: \(cliError.description)")
            Foundation.exit(cliError.exitCode)
        }
    }
}
