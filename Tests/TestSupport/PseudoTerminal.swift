import Foundation
import Synchronization

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
    let terminal = try terminalProcess(running: process)
    let result = try runBlocking(terminal, input: input, onOutput: onOutput)
    return (result.status, result.output.replacingOccurrences(of: "\r\n", with: "\n"))
}

/// Runs a configured process (not started) on a pseudo-terminal, as
/// ``runOnTerminal(_:input:onOutput:)`` does, typing each reply only once
/// its prompt has shown: a secret prompt discards what was typed ahead
/// (as `getpass` does). The input ends after the last reply, or when the
/// process ends before a prompt shows.
public func runOnTerminal(_ process: ChildProcess, replies: [(prompt: String, reply: String)]) async throws -> (status: Int32, output: String) {
    try await onThread {
        let terminal = try terminalProcess(running: process)
        let screen = TerminalScreen()
        let result = try runBlocking(terminal, writeInput: { input in
            for (prompt, reply) in replies {
                guard screen.waitFor(prompt) else { return }
                writeAll(input, Data(reply.utf8))
            }
        }, onOutput: screen.show)
        screen.end()
        return (result.status, String(decoding: result.output, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n"))
    }
}

/// What a terminal has shown so far, and a wait for a prompt in what
/// came after the last one found. `Sendable` through its mutex.
private final class TerminalScreen: Sendable {
    private let state = Mutex((output: Data(), searchedFrom: 0, ended: false))
    private let more = DispatchSemaphore(value: 0)

    func show(_ output: Data) {
        state.withLock { $0.output = output }
        more.signal()
    }

    func end() {
        state.withLock { $0.ended = true }
        more.signal()
    }

    /// Waits until `prompt` shows after the previous prompt; false when
    /// the process ended first.
    func waitFor(_ prompt: String) -> Bool {
        let bytes = Data(prompt.utf8)
        while true {
            let (found, ended) = state.withLock { state -> (Bool, Bool) in
                guard let range = state.output.range(of: bytes, in: state.searchedFrom..<state.output.count) else {
                    return (false, state.ended)
                }
                state.searchedFrom = range.upperBound
                return (true, state.ended)
            }
            if found { return true }
            if ended { return false }
            more.wait()
        }
    }
}

/// `script` running `process` on a pseudo-terminal, not started.
private func terminalProcess(running process: ChildProcess) throws -> ChildProcess {
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
    return terminal
}

/// `text` quoted for a POSIX shell: one word, whatever it holds.
public func shellQuoted(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}
