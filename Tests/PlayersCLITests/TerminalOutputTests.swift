import CipherDB
import Foundation
import Players
import PlayersShared
import TestSupport
import Testing

/// Stored names and a server's text reach the terminal with their control
/// characters escaped: a database written by an older version, or a
/// hostile server, cannot drive the terminal or break a line.
@Suite struct TerminalOutputTests {
    static let hostileName = "Evil\u{1B}[2J\u{1B}]0;pwned\u{7}\nline\u{9B}1m\u{7F}\u{202E}"
    static let escapedName = #"Evil\u001B[2J\u001B]0;pwned\u0007\u000Aline\u009B1m\u007F\u202E"#

    /// A sandbox whose database holds a name that this version refuses,
    /// written with SQL as an older version or another program could.
    func sandboxWithAHostileName() async throws -> CLISandbox {
        let sandbox = try CLISandbox()
        await #expect(try sandbox.run(["init"]).status == 0)
        let queue = try sandbox.keyedQueue(at: sandbox.databasePath)
        defer { try? queue.close() }
        try await queue.write { db in
            try db.execute(sql: "INSERT INTO player (uuid, name, score) VALUES (?, ?, 7)", arguments: [UUID().uuidString, Self.hostileName])
        }
        return sandbox
    }

    @Test func listEscapesControlCharactersInNames() async throws {
        let sandbox = try await sandboxWithAHostileName()
        let result = try await sandbox.run(["list"])
        #expect(result.status == 0)
        #expect(result.output.unicodeScalars.allSatisfy { $0 == "\n" || !(($0.value < 0x20) || (0x7F...0x9F).contains($0.value)) })
        #expect(result.output == "ID  NAME\(String(repeating: " ", count: Self.escapedName.count - 2))SCORE\n 1  \(Self.escapedName)      7\n")
    }

    /// Line and paragraph separators end a line on some terminals, and
    /// bidirectional marks reorder what follows: each is escaped, in the
    /// table and in JSON Lines, which read back the same name.
    @Test(arguments: ["\u{2028}", "\u{2029}", "\u{061C}", "\u{200E}", "\u{200F}"])
    func listEscapesSeparatorsAndBidirectionalMarks(_ character: String) async throws {
        let sandbox = try CLISandbox()
        try await sandbox.runChecked(["init"])
        let queue = try sandbox.keyedQueue(at: sandbox.databasePath)
        try await queue.write { db in
            try db.execute(sql: "INSERT INTO player (uuid, name, score) VALUES (?, ?, 7)", arguments: [UUID().uuidString, "A\(character)B"])
        }
        try queue.close()
        let escaped = "A\\u" + String(format: "%04X", character.unicodeScalars.first!.value) + "B"
        let table = try await sandbox.run(["list"])
        #expect(table.output.contains(" 1  \(escaped)  "), "\(table.output)")
        let json = try await sandbox.run(["list", "--json"])
        #expect(!json.output.contains(character))
        #expect(try jsonLines(json.output).first?["name"] as? String == "A\(character)B")
    }

    @Test func listJSONHasNoRawControlCharacterAndReadsBackTheSameName() async throws {
        let sandbox = try await sandboxWithAHostileName()
        let result = try await sandbox.run(["list", "--json"])
        #expect(result.status == 0)
        #expect(!result.output.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) || $0 == "\u{202E}" })
        let players = try jsonLines(result.output)
        #expect(players.first?["name"] as? String == Self.hostileName)
    }

    @Test func decryptPrintsBidirectionalOverridesEscaped() async throws {
        // A name that the rule accepts, but that would reorder the line.
        let sandbox = try CLISandbox()
        await #expect(try sandbox.run(["init"]).status == 0)
        await #expect(try sandbox.run(["add", "--name", "Arthur\u{202E}txt.exe", "--score", "7"]).status == 0)
        let export = sandbox.root.appendingPathComponent("players.json").path
        await #expect(try sandbox.run(["export", "--format", "json", export]).status == 0)
        let result = try await sandbox.run(["decrypt", export])
        #expect(result.status == 0, "\(result.error)")
        #expect(!result.output.unicodeScalars.contains("\u{202E}"))
        #expect(result.output.contains(#""name" : "Arthur\u202Etxt.exe""#), "\(result.output)")
        let payload = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
        let players = payload?["players"] as? [[String: Any]]
        #expect(players?.first?["name"] as? String == "Arthur\u{202E}txt.exe")
    }

    @Test func editingAPlayerWhoseStoredNameBreaksTheRuleAsksForANewName() async throws {
        let sandbox = try await sandboxWithAHostileName()
        let before = sandbox.databaseSnapshot()
        let result = try await sandbox.run(["edit", "1", "--score", "8"])
        #expect(result.status == 1)
        #expect(result.error == "players: the stored name of player 1 contains a control character (U+001B), and a name must be \(PlayerValidationError.nameRule): give a new --name too; nothing was changed\n")
        #expect(sandbox.databaseSnapshot() == before)

        let renamed = try await sandbox.run(["edit", "1", "--name", "Fixed", "--score", "8"])
        #expect(renamed.output == "Player 1: Fixed, 8.\n")
    }

    @Test func aServersErrorMessageIsPrintedEscapedOnOneLine() async throws {
        let server = try ScriptedHTTPServer { _, _ in
            .json(#"{"error":{"message":"bad\u001b[2J\nrequest\u009b"}}"#, status: 400)
        }
        defer { server.stop() }
        let sandbox = try CLISandbox()
        _ = try await sandbox.run(["init"])
        let before = sandbox.databaseSnapshot()
        let result = try await sandbox.run(["sync", "--url", server.baseURL, "--quiet"])
        #expect(result.status == 5)
        #expect(result.error == #"players: the server refused the request (HTTP 400: bad\u001B[2J\u000Arequest\u009B): check the URL; the database was left unchanged"# + "\n")
        #expect(sandbox.databaseSnapshot() == before)
    }

    @Test func aServerOfTheReleaseBeforeTheSyncEngineIsNamedWithWhatToDo() async throws {
        // That release's players-server serves /v1/players alone.
        let server = try ScriptedHTTPServer { request, _ in
            request.path.hasPrefix("/v1/players") ? .json(#"{"players":[]}"#) : .json(#"{"error":{"message":"Not Found"}}"#, status: 404)
        }
        defer { server.stop() }
        let sandbox = try CLISandbox()
        _ = try await sandbox.run(["init"])
        let before = sandbox.databaseSnapshot()
        let result = try await sandbox.run(["sync", "--url", server.baseURL, "--quiet"])
        #expect(result.status == 5)
        #expect(result.error == "players: the server has no sync endpoint /v1/sync (HTTP 404): it is a players-server of a release "
                + "before the sync engine, or not a players server; upgrade players-server, or check the URL; the database was left unchanged\n")
        #expect(sandbox.databaseSnapshot() == before)
    }

    @Test func aServersCursorWithControlCharactersIsRefusedAndNotPrinted() async throws {
        let page = #"{"protocolVersion":1,"kind":"snapshot","complete":true,"cursor":"7\u001b[2J","rows":[],"tombstones":[]}"#
        let server = try ScriptedHTTPServer { _, _ in .json(page) }
        defer { server.stop() }
        let sandbox = try CLISandbox()
        _ = try await sandbox.run(["init"])
        let before = sandbox.databaseSnapshot()
        let sync = try await sandbox.run(["sync", "--url", server.baseURL, "--quiet"])
        #expect(sync.status == 5)
        #expect(sync.error.hasPrefix("players: the server sent an invalid payload (page 1, $.cursor: not a cursor of this protocol): nothing was written"))
        #expect(!(sync.output + sync.error).contains("\u{1B}"))
        #expect(sandbox.databaseSnapshot() == before)
    }
}
