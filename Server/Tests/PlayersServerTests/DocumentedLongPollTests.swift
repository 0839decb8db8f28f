import Foundation
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
        let command = lines[index].dropFirst(2).replacingOccurrences(of: "127.0.0.1:8080", with: "127.0.0.1:\(server.port)")
        let result = try await run("/bin/sh", ["-c", command], environment: ServerProcess.environment([:]))
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == String(lines[index + 1]))
        #expect(try server.metric("players_server_long_polls_total") == 1, "the long-poll waited")
    }
}
