import ArgumentParser
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
            5 the sync server could not be reached, failed, or sent an invalid answer.
            """,
        subcommands: [
            Init.self, List.self, Add.self, Edit.self, Delete.self, Randomize.self,
            Backup.self, Restore.self, Export.self, Decrypt.self, Encrypt.self, Rekey.self, Info.self, Verify.self,
            Sync.self, Conflicts.self, Remote.self,
        ])

    /// Runs the command, and maps every error to one line on standard
    /// error and its documented exit code.
    static func main() async {
        do {
            if let error = invalidArgumentError() { throw error }
            var command = try parseAsRoot()
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
                exit(withError: error) // --help, --version
            }
            if code == .validationFailure || error is ValidationError {
                // Several lines (the error, the usage): each one escaped.
                fullMessage(for: error).split(separator: "\n", omittingEmptySubsequences: false).forEach { Terminal.printError(String($0)) }
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
