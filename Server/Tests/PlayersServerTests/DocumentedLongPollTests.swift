import Foundation
import ServerTestSupport
import SyncSchema
import TestSupport
import Testing

/// Docs/Server.md, "Long-polls": the `curl` command of an empty long-poll,
/// read from the page and run as written (on the test server's port). The
/// server counts the long-polls that waited: this one did, and nothing
/// but its wait's end could answer it.
@Suite struct DocumentedLongPollTests {
    @Test func theDocumentedLongPollAnswersTheEmptyDeltaAfterItsWait() async throws {
        let lines = try String(contentsOf: BuiltProducts.packageRoot.appendingPathComponent("Docs/Server.md"), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false)
        guard let index = lines.firstIndex(where: { $0.hasPrefix("$ curl") && $0.contains("wait=") }), index + 1 < lines.count else {
            throw TestFailure("Docs/Server.md has no curl command with wait=")
        }
        let server = try ServerProcess(["--seed", "25"])
        let cursor = try server.cursor()
        let command = lines[index].dropFirst(2).replacingOccurrences(of: "127.0.0.1:8080", with: "127.0.0.1:\(server.port)")
        let result = try await run("/bin/sh", ["-c", command], environment: ServerProcess.environment(["CURSOR": cursor]))
        #expect(result.status == 0, "\(result.error)")
        // The page's cursor and checksum, in place of this server's own
        // (its players are random).
        let documented = String(lines[index + 1])
        let pageCursor = try #require(documented.firstMatch(of: /"cursor":"([^"]*)"/)?.1)
        #expect(try SyncCursor(String(pageCursor)).counter == SyncCursor(cursor).counter)
        let pageChecksum = try #require(documented.firstMatch(of: /"checksum":"([0-9a-f]{16})"/)?.1)
        let checksum = try #require(result.output.firstMatch(of: /"checksum":"([0-9a-f]{16})"/)?.1)
        #expect(result.output == documented.replacingOccurrences(of: String(pageCursor), with: cursor)
            .replacingOccurrences(of: String(pageChecksum), with: checksum))
        #expect(try server.metric("players_server_long_polls_total") == 1, "the long-poll waited")
    }
}
