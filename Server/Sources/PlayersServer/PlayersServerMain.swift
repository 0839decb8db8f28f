import ArgumentParser
import CommandLineBase
import Foundation
import SyncServer

/// `players-server`: `serve` (the default, so that `players-server --port
/// 8080` serves), `backup` or `token`. Each command has its own options.
@main
struct PlayersServerMain: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "players-server",
        abstract: "The players sync server.",
        discussion: """
            Exit codes: 0 stopped by SIGINT or SIGTERM, or a backup made; 1 a failure (the port is in use, \
            the database does not open, PostgreSQL cannot be used, a backup failed); 2 usage error; \
            3 stopped, but another program had the database open: its write-ahead log stays beside it.
            """,
        subcommands: [PlayersServerCommand.self, PlayersServerCommand.Backup.self, PlayersServerCommand.Token.self],
        defaultSubcommand: PlayersServerCommand.self)

    /// Runs the command, and maps every error to one line on standard
    /// error, `players-server: …`, with its exit code: 2 for a usage error
    /// (with a second line that says where to read more, unless the line
    /// suggests the option meant), 3 for a database that another program
    /// had open as the server stopped, 1 for any other failure.
    static func main() async {
        await runCommandLine(program: "players-server", printError: printError) { error in
            if case SyncStoreError.closedInUse = error { return ("\(error)", 3) }
            return ("\(error)", 1)
        }
    }

    static func printError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
