import Foundation
import PlayersShared
import TestSupport
import Testing

/// `players export --format json` encodes its players a thousand at a
/// time, for its progress: the file is still, byte for byte, the JSON
/// that the payload's encoder makes.
@Suite struct JSONExportBytesTests {
    @Test func aJSONExportOfSeveralThousandPlayersIsTheEncodersJSON() async throws {
        let sandbox = try CLISandbox()
        try await sandbox.runChecked(["init"])
        try sandbox.insertPlayers(count: 2_500, named: #"Zoé "the" \ / Ω"#)
        let file = sandbox.root.appendingPathComponent("players.json")
        try await sandbox.runChecked(["export", "--format", "json", "--plaintext", file.path])
        let exported = try Data(contentsOf: file)
        let payload = try PlayersPayload.decode(exported)
        #expect(payload.players.count == 2_500)
        #expect(payload.players.last?.name == #"Zoé "the" \ / Ω 2500"#)
        #expect(try payload.jsonData(prettyPrinted: true) == exported)
    }

    @Test func plaintextJSONOnAPipeIsTheFilesBytes() async throws {
        let sandbox = try await CLISandbox.withPlayer("Arthur\u{202E}Dent", score: 42)
        let result = try await sandbox.runShell("players export --format json --plaintext - > piped.json && players export --format json --plaintext file.json")
        #expect(result.status == 0, "\(result.error)")
        let piped = try Data(contentsOf: sandbox.root.appendingPathComponent("piped.json"))
        #expect(piped == (try Data(contentsOf: sandbox.root.appendingPathComponent("file.json"))))
        #expect(!piped.isEmpty)
    }
}
