import CipherDB
import Foundation
import Players
import PlayersShared
import SyncSchema
import TestSupport
import Testing

/// `players` killed with SIGKILL at each call that makes a change durable
/// or moves a file (fsync, fdatasync, ftruncate, rename, link, unlink),
/// just before it and just after it, by the LD_PRELOAD library in
/// Tests/CrashInjection. After each kill the database opens with a key,
/// passes `integrity_check` and holds the players of before or of after
/// the command, never anything else; copies and their temporary files are
/// private (the commands run under `umask 022`); `players verify` passes
/// and removes what the killed run left; the command then runs again to
/// its end.
@Suite struct CrashSafetyTests {
    @Test func restoreKilledAnywhereLeavesTheOldOrTheRestoredDatabase() async throws {
        let template = try await CLISandbox.withRandomPlayers()
        let backup = template.root.appendingPathComponent("backup.db").path
        try await template.runChecked(["backup", "--quiet", backup])
        let backupPlayers = try template.players()
        try await template.runChecked(["add", "--name", "Zaphod", "--score", "42"])
        let currentPlayers = try template.players()
        #expect(backupPlayers != currentPlayers)

        try await CrashTrials(template: template) { sandbox in
            ["restore", "--quiet", sandbox.root.appendingPathComponent("backup.db").path]
        } check: { sandbox in
            let players = try sandbox.players()
            guard players == currentPlayers || players == backupPlayers else {
                throw TestFailure("the database holds neither the old nor the restored players")
            }
            try await sandbox.verifyLeavesNoTemporaries()
        }.run()
    }

    @Test func backupKilledAnywhereLeavesNoCopyOrAWholeOne() async throws {
        let template = try await CLISandbox.withRandomPlayers()
        let players = try template.players()

        try await CrashTrials(template: template) { sandbox in
            ["backup", "--quiet", sandbox.root.appendingPathComponent("copy.db").path]
        } check: { sandbox in
            guard try sandbox.players() == players else { throw TestFailure("the database changed") }
            let copy = sandbox.root.appendingPathComponent("copy.db").path
            try sandbox.expectPrivateCopies(of: copy)
            if FileManager.default.fileExists(atPath: copy), try sandbox.players(at: copy) != players {
                throw TestFailure("the backup exists but does not hold the players")
            }
            try await sandbox.runChecked(["backup", "--quiet", "--force", copy])
            try sandbox.expectNoTemporaries(next: copy)
            try await sandbox.verifyLeavesNoTemporaries()
        }.run()
    }

    @Test func jsonExportKilledAnywhereLeavesNoExportOrAWholeOne() async throws {
        let template = try await CLISandbox.withRandomPlayers()
        let players = try template.players()

        try await CrashTrials(template: template) { sandbox in
            ["export", "--format", "json", sandbox.root.appendingPathComponent("players.json").path]
        } check: { sandbox in
            guard try sandbox.players() == players else { throw TestFailure("the database changed") }
            let export = sandbox.root.appendingPathComponent("players.json").path
            try sandbox.expectPrivateCopies(of: export)
            if FileManager.default.fileExists(atPath: export) {
                try await sandbox.runChecked(["decrypt", export])
            }
            try await sandbox.runChecked(["export", "--format", "json", "--force", export])
            try sandbox.expectNoTemporaries(next: export)
        }.run()
    }

    @Test func rekeyKilledAnywhereLeavesTheOldOrTheNewKey() async throws {
        let template = try await CLISandbox.withRandomPlayers()
        let players = try template.players()
        _ = try template.writeSecret("new.key", String(repeating: "ab", count: 32) + "\n")

        try await CrashTrials(template: template) { sandbox in
            ["rekey", "--quiet", "--to-key-file", sandbox.root.appendingPathComponent("new.key").path]
        } check: { sandbox in
            let newKey = sandbox.root.appendingPathComponent("new.key").path
            let oldOpens = (try? sandbox.players()) == players
            let newOpens = (try? sandbox.players(keyFile: newKey)) == players
            guard oldOpens != newOpens else {
                throw TestFailure("the old key opens it: \(oldOpens), the new key: \(newOpens)")
            }
            try await sandbox.verifyLeavesNoTemporaries(arguments: newOpens ? ["--key-file", newKey] : [])
        }.run()
    }

    @Test func syncKilledAnywhereLeavesTheStateOfBeforeOrAfter() async throws {
        let template = try await CLISandbox.withRandomPlayers()
        // The server: it applies the push of the random players (whatever
        // its retries), then lists them with 20 players of its own; a delta
        // after that is empty.
        let exported = template.root.appendingPathComponent("local.json")
        try await template.runChecked(["export", "--format", "json", "--plaintext", exported.path])
        let local = try PlayersPayload.decode(Data(contentsOf: exported)).players
        try FileManager.default.removeItem(at: exported)
        let rows = local.enumerated().map { index, player in
            ScriptedPage.playerRow(uuid: player.uuid.uuidString, name: player.name, score: player.score, version: 100 + index)
        } + (1...20).map { ScriptedPage.playerRow(uuid: UUID().uuidString, name: "Player \($0)", score: $0 * 10, version: $0) }
        let snapshot = ScriptedPage.json(kind: "snapshot", cursor: ScriptedCursor.at(200), rows: rows)
        let delta = ScriptedPage.json(kind: "delta", cursor: ScriptedCursor.at(200), rows: [])
        let server = try ScriptedHTTPServer { request, _ in
            guard request.method == "POST" else { return .json(request.path.contains("since=") ? delta : snapshot) }
            guard let batch = try? SyncChangeBatch.decode(request.body, schema: PlayersSchema.schema) else { return .json("{}", status: 400) }
            let results = batch.changes.map { change in
                SyncPushResult(mutationID: change.mutationID, status: .applied,
                               version: Int64(100 + (local.firstIndex { $0.uuid == change.row.id } ?? 0)))
            }
            return .json(String(decoding: SyncChangeResults(results: results).jsonData(), as: UTF8.self))
        }
        defer { server.stop() }
        let url = server.baseURL
        let before = try template.players()
        let reference = try CLISandbox(copying: template)
        try await reference.runChecked(["sync", "--quiet", "--url", url])
        let after = try reference.players()
        #expect(after.count == before.count + 20)

        try await CrashTrials(template: template) { _ in
            ["sync", "--quiet", "--url", url]
        } check: { sandbox in
            let players = try sandbox.players()
            guard players == before || players == after else {
                throw TestFailure("the database holds \(players.count) players, neither the \(before.count) of before nor the \(after.count) of after")
            }
            try await sandbox.verifyLeavesNoTemporaries()
            // The next sync finishes the job: every change pushed, every
            // player of the server merged.
            try await sandbox.runChecked(["sync", "--quiet", "--url", url])
            guard try sandbox.players() == after, try sandbox.pendingChangeCount() == 0 else {
                throw TestFailure("the sync after the kill did not finish the job")
            }
        }.run()
    }
}

// MARK: - Trials

/// The crash trials of one command: it runs once with the calls logged,
/// then once per call and side (before, after), killed there, each time in
/// a fresh copy of the template sandbox.
struct CrashTrials: Sendable {
    let template: CLISandbox
    let arguments: @Sendable (CLISandbox) -> [String]
    let check: @Sendable (CLISandbox) async throws -> Void

    init(template: CLISandbox,
         arguments: @escaping @Sendable (CLISandbox) -> [String],
         check: @escaping @Sendable (CLISandbox) async throws -> Void)
    {
        self.template = template
        self.arguments = arguments
        self.check = check
    }

    func run() async throws {
        let library = try CrashInjection.library()
        let logged = try CLISandbox(copying: template)
        let log = logged.root.appendingPathComponent("calls.log").path
        let result = try await logged.run(arguments(logged), environment: ["LD_PRELOAD": library, "CRASH_INJECTION_LOG": log])
        try #require(result.status == 0, "\(result.error)")
        let calls = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n").map(String.init)
        try #require(calls.count >= 3, "the command made \(calls.count) durable calls: is the library preloaded?")

        let killPoints = Self.killPoints(calls)
        print("CrashTrials \(arguments(logged).first ?? ""): \(killPoints.count) kills at \(Set(killPoints.map(\.call)).count) of \(calls.count) calls (tier \(TestTier.current.rawValue))")
        var failures: [String] = []
        for point in killPoints {
            let call = calls[point.call]
            let sandbox = try CLISandbox(copying: template)
            let trialArguments = arguments(sandbox)
            let environment = [
                "LD_PRELOAD": library,
                "CRASH_INJECTION_KILL_AT": "\(point.call + 1)",
                "CRASH_INJECTION_KILL_AFTER": point.after ? "1" : "0",
            ]
            let (killed, status) = try await sandbox.runUnderOpenUmask(trialArguments, environment: environment)
            let trial = "killed \(point.after ? "after" : "before") call \(call)"
            guard killed else {
                failures.append("\(trial): the command ended with \(status) before that call")
                continue
            }
            do {
                try await check(sandbox)
            } catch {
                failures.append("\(trial): \(error)")
            }
        }
        #expect(failures.isEmpty, "\(failures.count) of \(killPoints.count) crash trials failed:\n\(failures.joined(separator: "\n"))")
    }

    /// Where a trial kills: just before or just after a call (its index).
    struct KillPoint: Hashable, Comparable {
        var call: Int
        var after: Bool

        static func < (a: KillPoint, b: KillPoint) -> Bool { (a.call, a.after ? 1 : 0) < (b.call, b.after ? 1 : 0) }
    }

    /// Where to kill. The long tier kills before and after every call. The
    /// correctness tier crosses every kind of call that the log tells apart
    /// (its function and file) at both ends of its repetitions: before the
    /// first and after the last, and for a kind that comes once, before
    /// and after it. (The states between two repetitions of one step, a
    /// copy's fdatasync after fdatasync, are the long tier's.)
    static func killPoints(_ calls: [String]) -> [KillPoint] {
        guard TestTier.current == .correctness else {
            return calls.indices.flatMap { [KillPoint(call: $0, after: false), KillPoint(call: $0, after: true)] }
        }
        // A line is "number function argument"; the number differs.
        let kinds = calls.map { $0.drop { $0 != " " } }
        var chosen = Set<KillPoint>()
        for kind in Set(kinds) {
            chosen.insert(KillPoint(call: kinds.firstIndex(of: kind)!, after: false))
            chosen.insert(KillPoint(call: kinds.lastIndex(of: kind)!, after: true))
        }
        return chosen.sorted()
    }
}

/// The LD_PRELOAD library of Tests/CrashInjection, compiled once per test
/// run with the toolchain's clang (or the system's cc), into the package's
/// `.build` folder: the temporary folder would keep one per run.
enum CrashInjection {
    private static let compiled: Result<String, TestFailure> = {
        let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        let source = tests.appendingPathComponent("CrashInjection/crash_injection.c").path
        // One name per run: a library in use by another run is not replaced.
        let folder = tests.deletingLastPathComponent().appendingPathComponent(".build")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let output = folder.appendingPathComponent("crash_injection-\(ProcessInfo.processInfo.processIdentifier).so").path
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let compilers = path.split(separator: ":").flatMap { folder in ["clang", "cc"].map { "\(folder)/\($0)" } }
        guard let compiler = compilers.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            return .failure(TestFailure("no clang or cc in PATH (\(path)): the crash tests need a C compiler (the Swift toolchain has clang)"))
        }
        guard let result = try? TestSupport.runBlocking(compiler, ["-shared", "-fPIC", "-O1", "-o", output, source, "-ldl"]),
              result.status == 0 else {
            return .failure(TestFailure("\(compiler) could not compile \(source)"))
        }
        return .success(output)
    }()

    static func library() throws -> String { try compiled.get() }
}
