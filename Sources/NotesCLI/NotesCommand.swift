import AppCommandLine
import ArgumentParser
import CipherSync
import CommandLineBase
import Foundation
import TerminalText

/// `notes`: the command line of Notes, the sync engine's second app
/// (Docs/NotesTutorial.md): notebooks and notes in an encrypted database,
/// synced with a `players-server` that serves `notes schema`.
@main
struct NotesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notes",
        abstract: "Keep notebooks and notes in an encrypted database, and sync them.",
        discussion: """
            --database and --passphrase-file (or --key-file) come before or after the command's name: \
            'notes --database notes.db --passphrase-file secret list'.

            Exit codes: 0 success, 1 the operation failed, 2 usage error, 3 wrong passphrase or key \
            (or not a notes database), 4 the database file is damaged, 5 the sync server could not be reached, failed, \
            or sent an invalid answer, 6 the server holds another database than the one this one synced with: nothing was merged.
            """,
        subcommands: [Init.self, NotebookCommands.self, NoteCommands.self, List.self, Sync.self, Conflicts.self, Export.self, Import.self, Schema.self])

    /// The options every subcommand takes, which may also come before its
    /// name, with whether each takes a value.
    static let globalOptions = ["--database": true, "--passphrase-file": true, "--key-file": true]

    static func main() async {
        await runCommandLine(program: "notes", globalOptions: globalOptions, printError: printError) { error in
            let cliError = CLIError.from(error)
            return (cliError.description, cliError.exitCode)
        }
    }

    /// One line on standard error, control characters escaped.
    static func printError(_ line: String) {
        PrintableText.writeLine(line, to: .standardError)
    }
}
