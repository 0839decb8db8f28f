import Foundation

/// Runs a configured process (not started) on a pseudo-terminal, through
/// util-linux's `script`: its standard input, output and error are a
/// terminal, as when a person runs it, for prompts and progress bars.
/// `input` is typed at the terminal (and echoed back into the output, as a
/// terminal does). Returns the exit status and everything the terminal
/// showed, standard output and error interleaved, with `\r\n` read as
/// `\n` (a lone `\r`, which redraws a progress bar, is kept).
/// `onOutput`, if given, gets what the terminal showed so far (as it
/// came, `\r\n` included) each time more arrives: the way to act once a
/// line is seen, while the process still runs.
/// The wait is on a thread of its own, as for ``run(_:input:onOutput:)``.
public func runOnTerminal(_ process: ChildProcess, input: String = "",
                          onOutput: (@Sendable (String) -> Void)? = nil) async throws -> (status: Int32, output: String) {
    try await onThread { try runOnTerminalBlocking(process, input: input, onOutput: onOutput) }
}

private func runOnTerminalBlocking(_ process: ChildProcess, input: String,
                                   onOutput: (@Sendable (String) -> Void)?) throws -> (status: Int32, output: String) {
    guard let executable = process.executableURL?.path else {
        throw TestFailure("runOnTerminal needs a process with an executable.")
    }
    let command = ([executable] + process.arguments).map(shellQuoted).joined(separator: " ")
    let terminal = ChildProcess()
    terminal.executableURL = URL(fileURLWithPath: "/usr/bin/script")
    // -q: no "Script started" lines; -e: script exits with the command's status.
    terminal.arguments = ["-qec", command, "/dev/null"]
    terminal.environment = process.environment
    terminal.currentDirectoryURL = process.currentDirectoryURL
    let result = try runBlocking(terminal, input: input, onOutput: onOutput)
    return (result.status, result.output.replacingOccurrences(of: "\r\n", with: "\n"))
}

/// `text` quoted for a POSIX shell: one word, whatever it holds.
public func shellQuoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}
