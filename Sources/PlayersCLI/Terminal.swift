import Foundation
import TerminalText

/// Reading from and writing to the terminal. Lines that may hold stored
/// or received text (names, cursors, a server's message) are printed with
/// their control characters escaped (``PrintableText``): a database
/// written by an older version, or a hostile server, cannot drive the
/// terminal or break a line in two.
enum Terminal {
    /// Whether standard input is a terminal (so that a person can answer).
    static var isInteractive: Bool { isatty(STDIN_FILENO) != 0 }

    /// Writes one line to standard output, control characters escaped.
    static func printLine(_ line: String) {
        print(PrintableText.escaping(line))
    }

    /// Writes one line to standard output at once, unbuffered, control
    /// characters escaped: for the lines of `players sync --watch`, which
    /// a reader follows as they come.
    static func printLineNow(_ line: String) {
        PrintableText.writeLine(line, to: .standardOutput)
    }

    /// Writes one line to standard error, control characters escaped.
    static func printError(_ line: String) {
        PrintableText.writeLine(line, to: .standardError)
    }

    /// Asks for a secret on the terminal, without echo. The answer is never
    /// written anywhere.
    static func readSecret(prompt: String) -> String? {
        var original = termios()
        let hasTerminal = tcgetattr(STDIN_FILENO, &original) == 0
        if hasTerminal {
            // Echo off first, discarding what was typed ahead (as getpass
            // does), then the prompt: what is typed after it is kept.
            var silent = original
            silent.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &silent)
        }
        FileHandle.standardError.write(Data(prompt.utf8))
        defer {
            if hasTerminal {
                tcsetattr(STDIN_FILENO, TCSAFLUSH, &original)
                FileHandle.standardError.write(Data("\n".utf8))
            }
        }
        return readLine(strippingNewline: true)
    }

    /// Asks a yes/no question on the terminal; only "y" or "yes" is yes,
    /// and the end of input is no.
    static func confirm(_ question: String) -> Bool {
        FileHandle.standardError.write(Data((question + " [y/N] ").utf8))
        guard let answer = readLine(strippingNewline: true)?.trimmingCharacters(in: .whitespaces).lowercased() else {
            // Ctrl-D: what follows starts on a line of its own.
            FileHandle.standardError.write(Data("\n".utf8))
            return false
        }
        return answer == "y" || answer == "yes"
    }
}
