import Foundation

/// `-` for a file argument: standard input or standard output, as curl
/// and git read it. A file named `-` is reached as `./-`.
public enum StandardStream {
    public static let argument = "-"

    /// How errors name standard input: never by its temporary copy's path.
    public static let inputName = "standard input"

    /// Whether standard output is a terminal.
    public static var isOutputATerminal: Bool { isatty(STDOUT_FILENO) != 0 }

    /// Refuses to read a file from a terminal: `players COMMAND -` waits
    /// for a file that nobody can type. `command` is the whole command:
    /// `players decrypt`.
    public static func checkInputIsNotATerminal(command: String) throws {
        if isatty(STDIN_FILENO) != 0 {
            throw CLIError.usage("standard input is a terminal: pipe or redirect the file into '\(command) -', or give its path")
        }
    }

    /// The bytes of `file`, or of standard input for `-` (not a terminal,
    /// and not empty: `what` names what it should hold), for `command`:
    /// `players decrypt`.
    public static func contents(of file: String, command: String, what: String) throws -> Data {
        guard file == argument else {
            guard let contents = FileManager.default.contents(atPath: file) else {
                throw CLIError.failure("cannot read \(file): check that it exists and is readable")
            }
            return contents
        }
        try checkInputIsNotATerminal(command: command)
        let data = FileHandle.standardInput.readDataToEndOfFile()
        guard !data.isEmpty else { throw CLIError.failure("standard input is empty: pipe or redirect \(what) into '\(command) -'") }
        return data
    }

    /// Refuses to write binary data (an encrypted export, a database) to a
    /// terminal, where it would only garble the screen.
    public static func checkOutputIsNotATerminal(writing what: String) throws {
        if isOutputATerminal {
            throw CLIError.usage("standard output is a terminal, and \(what) is binary: redirect it to a file or a pipe")
        }
    }
}
