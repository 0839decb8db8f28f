import Foundation
import TestSupport
import Testing

/// Progress on standard error for the operations that can last more than
/// a second: on a terminal only, never with `--quiet`, never on a pipe.
/// The commands run with `PLAYERS_PROGRESS_DELAY=0`, so that progress
/// shows from their start however fast the machine: the tests depend on
/// no duration (`progressWaitsForItsDelay` checks the delay itself).
@Suite struct ProgressTests {
    /// Progress from the start, in the environment of every command here.
    static let noDelay = progressDelay(seconds: 0)

    /// A command on a database of `players` named `name` and a number,
    /// and the text its progress shows.
    struct LongCommand: Sendable, CustomTestStringConvertible {
        let arguments: @Sendable (CLISandbox) -> [String]
        let players: Int
        var name = "Player"
        let progress: String
        let testDescription: String
    }

    static let longCommands = [
        // The fraction of players read, encoded and checked.
        LongCommand(arguments: { ["export", "--format", "json", "--force", $0.root.appendingPathComponent("players.json").path] },
                    players: 200, progress: "Export [", testDescription: "export --format json"),
        // integrity_check reports no fraction: the elapsed time.
        LongCommand(arguments: { _ in ["verify"] }, players: 200, name: String(repeating: "𝔸", count: 90),
                    progress: "Verify: 0 s", testDescription: "verify"),
        // The fraction of changes applied.
        LongCommand(arguments: { _ in ["randomize"] }, players: 200, progress: "Randomize [", testDescription: "randomize"),
    ]

    @Test(arguments: longCommands)
    func aLongCommandShowsProgressOnATerminalOnlyAndNotWhenQuiet(_ command: LongCommand) async throws {
        let sandbox = try CLISandbox()
        try await sandbox.runChecked(["init"])
        try sandbox.insertPlayers(count: command.players, named: command.name)

        let shown = try await runOnTerminal(sandbox.makeProcess(command.arguments(sandbox), environment: Self.noDelay))
        #expect(shown.status == 0, "\(shown.output)")
        #expect(shown.output.contains("\r" + command.progress), "\(shown.output)")
        if command.progress.hasSuffix("[") {
            #expect(shown.output.contains("] 100% ("), "\(shown.output)")
        }
        // The command's own line comes after the progress line, on its own.
        #expect(shown.output.split(separator: "\n").last?.contains("\r") == false, "\(shown.output)")

        let quiet = try await runOnTerminal(sandbox.makeProcess(command.arguments(sandbox) + ["-q"], environment: Self.noDelay))
        #expect(quiet.status == 0, "\(quiet.output)")
        #expect(!quiet.output.contains("\r") && !quiet.output.contains(command.progress), "\(quiet.output)")

        let piped = try await sandbox.run(command.arguments(sandbox), environment: Self.noDelay)
        #expect(piped.status == 0, "\(piped.error)")
        #expect(piped.error.isEmpty, "\(piped.error)")
    }

    /// A delay that no command here lasts (an hour): nothing shows, of a
    /// bar or of an elapsed time.
    @Test(arguments: [["verify"], ["randomize"]])
    func progressWaitsForItsDelay(_ arguments: [String]) async throws {
        let sandbox = try CLISandbox()
        try await sandbox.runChecked(["init"])
        try sandbox.insertPlayers(count: 200, named: "Player")
        let result = try await runOnTerminal(sandbox.makeProcess(arguments, environment: progressDelay(seconds: 3600)))
        #expect(result.status == 0, "\(result.output)")
        #expect(!result.output.contains("\r"), "\(result.output)")
    }

    @Test func encryptShowsTheElapsedTimeOnATerminalOnlyAndNotWhenQuiet() async throws {
        let sandbox = try CLISandbox()
        // Players to import, and migrate one by one.
        let source = try await sandbox.makeSeedsPlaintextDatabase("plain.db", """
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200)
            INSERT INTO player (name, score) SELECT 'Player ' || i, i % 1000 FROM n;
            """)
        let key = try sandbox.writeSecret("encrypt.key", String(repeating: "cd", count: 32) + "\n")
        func encrypt(into name: String) -> [String] {
            ["encrypt", "--key-file", key, "--database", sandbox.root.appendingPathComponent(name).path, source]
        }
        let shown = try await runOnTerminal(sandbox.makeProcess(encrypt(into: "shown.db"), environment: Self.noDelay))
        #expect(shown.status == 0, "\(shown.output)")
        #expect(shown.output.contains("\rEncrypt: 0 s"), "\(shown.output)")
        let quiet = try await runOnTerminal(sandbox.makeProcess(encrypt(into: "quiet.db") + ["--quiet"], environment: Self.noDelay))
        #expect(quiet.status == 0, "\(quiet.output)")
        #expect(!quiet.output.contains("\r"), "\(quiet.output)")
        let piped = try await sandbox.run(encrypt(into: "piped.db"), environment: Self.noDelay)
        #expect(piped.status == 0, "\(piped.error)")
        #expect(piped.error.isEmpty, "\(piped.error)")
    }

    /// A snapshot page of `count` new players.
    static func snapshot(_ count: Int) -> Data {
        let rows = (1...count).map { index in
            let number = String(index)
            let uuid = "10000000-0000-4000-8000-" + String(repeating: "0", count: 12 - number.count) + number
            return ScriptedPage.playerRow(uuid: uuid, name: "Remote \(number)", score: index % 1000, version: index)
        }
        return Data(ScriptedPage.json(kind: "snapshot", cursor: ScriptedCursor.at(Int64(count)), rows: rows).utf8)
    }

    @Test func aSyncShowsItsMergeWithItsOwnFractionAndNoByteCount() async throws {
        let page = Self.snapshot(200)
        let server = try ScriptedHTTPServer { _, _ in .response(200, headers: ["Content-Type": "application/json"], body: page) }
        defer { server.stop() }
        let sandbox = try CLISandbox()
        _ = try await sandbox.run(["init"])
        let result = try await runOnTerminal(sandbox.makeProcess(["sync", "--url", server.baseURL], environment: Self.noDelay))
        #expect(result.status == 0, "\(result.output)")
        let updates = result.output.split(whereSeparator: { $0 == "\r" || $0 == "\n" })
        let merge = updates.filter { $0.hasPrefix("Merge [") }
        #expect(merge.last?.contains("100%") == true, "\(result.output)")
        #expect(merge.last?.hasSuffix(", 200 of 200 players\u{1B}[K") == true, "\(result.output)")
        // Bytes belong to the fetching line, never to the merge's.
        #expect(merge.allSatisfy { !$0.contains("B") }, "\(merge)")
        #expect(!result.output.contains("Zero"))
        #expect(result.output.hasSuffix("Synced with \(server.baseURL): pushed 0, +200 ~0 -0, conflicts 0, cursor 200.\n"))
    }

    /// Every answer is held until a sync shown on a terminal has drawn
    /// its fetching line. That sync starts once the quiet one and the
    /// piped one have asked, and draws its line at once (no delay): by
    /// then the other two are fetching, with no delay either, so they
    /// would show progress if they showed any.
    @Test(.hangGuard) func aSyncShowsNoProgressWhenQuietOrOnAPipe() async throws {
        let lineShown = Gate()
        let server = try ScriptedHTTPServer { _, _ in
            [.hold(lineShown)] + .response(200, headers: ["Content-Type": "application/json"], body: Self.snapshot(10))
        }
        defer { server.stop() }
        // A database each: the three merge the same snapshot.
        let (quietSandbox, pipedSandbox, shownSandbox) = (try CLISandbox(), try CLISandbox(), try CLISandbox())
        for sandbox in [quietSandbox, pipedSandbox, shownSandbox] { _ = try await sandbox.run(["init"]) }
        let quietProcess = try quietSandbox.makeProcess(["sync", "--full", "--quiet", "--url", server.baseURL], environment: Self.noDelay)
        async let quiet = runOnTerminal(quietProcess)
        async let piped = pipedSandbox.run(["sync", "--full", "--url", server.baseURL], environment: Self.noDelay)
        try await waitUntil("the quiet sync and the piped one ask for the snapshot") { server.requests.count == 2 }
        let shownProcess = try shownSandbox.makeProcess(["sync", "--full", "--url", server.baseURL], environment: Self.noDelay)
        let shown = try await runOnTerminal(shownProcess) { output in
            if output.contains("\rSync: ") { lineShown.open() }
        }
        #expect(shown.status == 0, "\(shown.output)")
        #expect(shown.output.contains("\rSync: 0 s"), "\(shown.output)")

        let quietResult = try await quiet
        #expect(quietResult.status == 0, "\(quietResult.output)")
        #expect(quietResult.output == "Synced with \(server.baseURL): pushed 0, +10 ~0 -0, conflicts 0, cursor 10.\n")
        let pipedResult = try await piped
        #expect(pipedResult.status == 0, "\(pipedResult.error)")
        #expect(pipedResult.error.isEmpty, "\(pipedResult.error)")
    }
}
