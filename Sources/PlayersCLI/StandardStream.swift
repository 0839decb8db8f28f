import AppCommandLine
import Foundation

/// `-` for a file argument: standard input or standard output, as curl
/// and git read it. A file named `-` is reached as `./-`.
enum StandardStream {
    static let argument = "-"

    /// How errors name standard input: never by its temporary copy's path.
    static let inputName = "standard input"

    /// Whether standard output is a terminal.
    static var isOutputATerminal: Bool { isatty(STDOUT_FILENO) != 0 }

    /// Refuses to read a file from a terminal: `players COMMAND -` waits
    /// for a file that nobody can type.
    static func checkInputIsNotATerminal(command: String) throws {
        if Terminal.isInteractive {
            throw CLIError.usage("standard input is a terminal: pipe or redirect the file into 'players \(command) -', or give its path")
        }
    }

    /// Refuses to write binary data (an encrypted export, a database) to a
    /// terminal, where it would only garble the screen.
    static func checkOutputIsNotATerminal(writing what: String) throws {
        if isOutputATerminal {
            throw CLIError.usage("standard output is a terminal, and \(what) is binary: redirect it to a file or a pipe")
        }
    }
}
