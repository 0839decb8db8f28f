import Foundation
import SyncSchema
import TestSupport
import Testing

/// Docs/Server.md, "Endpoints": the `curl` command that pushes a batch of
/// changes, read from the page and run as written (on the test server's
/// port), twice.
@Suite struct DocumentedChangesRequestTests {
    /// The documented command (without its prompt) and the line it prints.
    static func documentedCommand() throws -> (command: String, output: String) {
        let lines = try String(contentsOf: BuiltProducts.packageRoot.appendingPathComponent("Docs/Server.md"), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false)
        guard let index = lines.firstIndex(where: { $0.hasPrefix("$ curl") && $0.contains("/v1/sync/changes") }), index + 1 < lines.count else {
            throw TestFailure("Docs/Server.md has no curl command for /v1/sync/changes")
        }
        return (String(lines[index].dropFirst(2)), String(lines[index + 1]))
    }

    @Test func theDocumentedBatchIsAppliedOnceAndAnsweredTheSameWhenSentAgain() async throws {
        let (command, output) = try Self.documentedCommand()
        // The examples before it leave the counter at 23.
        let server = try ServerProcess(["--seed", "23"])
        let local = command.replacingOccurrences(of: "127.0.0.1:8080", with: "127.0.0.1:\(server.port)")
        for attempt in 1...2 {
            let result = try await run("/bin/sh", ["-c", local], environment: ServerProcess.environment([:]))
            #expect(result.status == 0, "\(result.error)")
            #expect(result.output == output, "attempt \(attempt)")
        }
        let player = try server.request("GET", "/v1/rows/player/7E3A1C55-2B4D-4F6E-8A9B-0C1D2E3F4A5B")
        #expect(player.body == #"{"id":"7E3A1C55-2B4D-4F6E-8A9B-0C1D2E3F4A5B","table":"player","values":{"name":"Zoé","score":30},"version":24}"#)
        let cursor = try server.cursor()
        #expect(try SyncCursor(cursor).counter == 24)
        #expect(try SyncPage.players(try server.request("GET", "/v1/sync/rows?since=\(cursor)").body).rows.isEmpty)
    }
}
