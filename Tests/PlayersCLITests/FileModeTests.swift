import Foundation
import TestSupport
import Testing

/// Every file that `players` creates is private to its owner from its
/// first byte, whatever the umask: the database and the `-wal`, `-shm` and
/// `-journal` files that SQLite creates next to it, copies and their
/// temporary files (checked at every crash point in
/// ``CrashSafetyTests``).
@Suite struct FileModeTests {
    @Test func theDatabaseAndTheFilesNextToItArePrivate() async throws {
        let sandbox = try CLISandbox()
        #expect(try await sandbox.runUnderOpenUmask(["init"]).status == 0)
        // Killed at its first durable call, inside its transaction: the
        // -wal and -shm files are still there.
        #expect(try await sandbox.runUnderOpenUmask(["add", "--name", "Arthur", "--score", "42"], environment: [
            "LD_PRELOAD": try CrashInjection.library(), "CRASH_INJECTION_KILL_AT": "1",
        ]).status == SIGKILL)
        let folder = URL(fileURLWithPath: sandbox.databasePath).deletingLastPathComponent()
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(Set(names).isSuperset(of: ["players.db", "players.db-wal", "players.db-shm"]), "\(names)")
        for name in names {
            #expect(try sandbox.mode(of: folder.appendingPathComponent(name).path) == 0o600, "\(name)")
        }
    }
}

extension CLISandbox {
    /// The permission bits of a file.
    func mode(of path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    /// Every file next to `path` whose name starts with its name (the
    /// copy and its temporary files) is private to its owner.
    func expectPrivateCopies(of path: String) throws {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent()
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path)
        where name.hasPrefix(url.lastPathComponent) || name.hasPrefix(".\(url.lastPathComponent).") {
            let mode = try mode(of: folder.appendingPathComponent(name).path)
            guard mode & 0o077 == 0 else {
                throw TestFailure("\(name) has mode \(String(mode, radix: 8)): others can read it")
            }
        }
    }
}

extension CLISandbox {
    /// Runs `players` under `umask 022` (``Process/runUnderOpenUmask()``),
    /// its output discarded, waiting on a thread of its own; returns
    /// whether it was killed by SIGKILL, and its status.
    func runUnderOpenUmask(_ arguments: [String], environment: [String: String] = [:]) async throws -> (killed: Bool, status: Int32) {
        try await onThread {
            let process = try self.makeProcess(arguments, environment: environment)
            process.runUnderOpenUmask()
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            return (process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL, process.terminationStatus)
        }
    }
}

extension ChildProcess {
    /// Runs the process's program through `/bin/sh` with `umask 022`, which
    /// lets others read new files: a file that the program does not create
    /// private from its first byte shows it.
    func runUnderOpenUmask() {
        let program = executableURL!.path
        executableURL = URL(fileURLWithPath: "/bin/sh")
        arguments = ["-c", #"umask 022 && exec "$0" "$@""#, program] + arguments
    }
}
