import Foundation
import Synchronization

/// A program that a test starts, with `posix_spawn`: the part of
/// Foundation's `Process` that the tests use, under the same names.
///
/// Foundation's `Process.run()` in Swift 6.3.1 crashes now and then on
/// Linux (swift-corelibs-foundation#5472: it copies 256 bytes of each
/// `/proc/self/fd` entry, past the end of glibc's buffer), and a test
/// process that starts hundreds of programs meets it: two runs of the
/// suite in four crashed there. This type spawns directly, and its reads
/// and waits retry when a signal interrupts them.
///
/// ```swift
/// let process = ChildProcess()
/// process.executableURL = URL(fileURLWithPath: "/bin/true")
/// try process.run()
/// process.waitUntilExit()
/// #expect(process.terminationStatus == 0)
/// ```
public final class ChildProcess: @unchecked Sendable {
    // @unchecked: the configuration is set by one thread before `run()`,
    // and read only by `run()`; what changes afterwards (the pid and the
    // exit) is behind `state`'s lock.

    /// How the program ended, as Foundation's `Process` says it.
    public enum TerminationReason: Sendable {
        case exit
        case uncaughtSignal
    }

    public var executableURL: URL?
    public var arguments: [String] = []
    /// The program's whole environment; the test's own when nil.
    public var environment: [String: String]?
    public var currentDirectoryURL: URL?
    /// The program's standard streams; the test's own when nil.
    public var standardInput: FileHandle?
    public var standardOutput: FileHandle?
    public var standardError: FileHandle?

    private struct State {
        var pid: pid_t = 0
        /// The status `waitpid` gave, once the program is reaped.
        var status: Int32?
    }

    private let state = Mutex(State())

    public init() {}

    public var processIdentifier: pid_t { state.withLock { $0.pid } }

    /// Starts the program; throws what `posix_spawn` refused, with the path.
    public func run() throws {
        guard let executable = executableURL?.path else {
            throw TestFailure("ChildProcess.run() needs an executableURL.")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (handle, target) in [(standardInput, STDIN_FILENO), (standardOutput, STDOUT_FILENO), (standardError, STDERR_FILENO)] {
            guard let handle else { continue }
            if handle.fileDescriptor < 0 {
                // `FileHandle.nullDevice` has no descriptor of its own.
                try Self.check(posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_RDWR, 0), "open /dev/null")
            } else {
                try Self.check(posix_spawn_file_actions_adddup2(&actions, handle.fileDescriptor, target), "dup2")
            }
        }
        if let directory = currentDirectoryURL?.path {
            try Self.check(Spawn.addChdir(&actions, directory), "chdir to \(directory)")
        }
        // Only the three streams: a pipe of another test left open in
        // this child would never reach its end of file.
        try Self.check(Spawn.addClosefrom(&actions, 3), "closefrom")

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The child starts with no signal blocked and every signal at its
        // default (the test process ignores SIGPIPE).
        var noSignals = sigset_t(), allSignals = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let environmentLines = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer { environmentLines?.forEach { free($0) } }

        var pid = pid_t()
        let result = environmentLines.map { lines in
            posix_spawn(&pid, executable, &actions, &attributes, argv, lines)
        } ?? posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        try Self.check(result, "spawn \(executable)")
        state.withLock { $0.pid = pid }
    }

    /// Whether the program still runs (reaps it once it has ended).
    public var isRunning: Bool {
        state.withLock { state in
            guard state.pid != 0 else { return false }
            Self.reapIfEnded(&state)
            return state.status == nil
        }
    }

    /// Blocks until the program has ended.
    public func waitUntilExit() {
        while true {
            let pid = state.withLock { state -> pid_t? in
                Self.reapIfEnded(&state)
                return state.status == nil && state.pid != 0 ? state.pid : nil
            }
            guard let pid else { return }
            // WNOWAIT: wait without reaping, so that reaping and recording
            // the status happen together, under the lock.
            var info = siginfo_t()
            _ = waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT)
        }
    }

    /// Sends SIGTERM.
    public func terminate() {
        if isRunning { kill(processIdentifier, SIGTERM) }
    }

    /// The exit code, or the signal's number when a signal ended it.
    public var terminationStatus: Int32 {
        let status = exitStatus
        return status & 0x7f == 0 ? (status >> 8) & 0xff : status & 0x7f
    }

    public var terminationReason: TerminationReason {
        exitStatus & 0x7f == 0 ? .exit : .uncaughtSignal
    }

    private var exitStatus: Int32 {
        guard let status = state.withLock({ $0.status }) else {
            preconditionFailure("ChildProcess: the program has not ended; call waitUntilExit() first.")
        }
        return status
    }

    private static func reapIfEnded(_ state: inout State) {
        guard state.status == nil, state.pid != 0 else { return }
        var status: Int32 = 0
        if waitpid(state.pid, &status, WNOHANG) == state.pid { state.status = status }
    }

    private static func check(_ code: Int32, _ what: String) throws {
        guard code != 0 else { return }
        throw TestFailure("ChildProcess could not \(what): \(String(cString: strerror(code))).")
    }
}

/// glibc's `posix_spawn` extensions, which Swift's Glibc module does not
/// declare (they need `_GNU_SOURCE`); looked up once.
private enum Spawn {
    typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    typealias AddClosefrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32

    static let addChdir: AddChdir = symbol("posix_spawn_file_actions_addchdir_np")
    static let addClosefrom: AddClosefrom = symbol("posix_spawn_file_actions_addclosefrom_np")

    private static func symbol<Function>(_ name: String) -> Function {
        guard let pointer = dlsym(dlopen(nil, RTLD_NOW), name) else {
            fatalError("glibc has no \(name) (glibc 2.34 or later is needed).")
        }
        return unsafeBitCast(pointer, to: Function.self)
    }
}
