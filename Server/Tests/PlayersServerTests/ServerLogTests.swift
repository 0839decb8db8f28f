import Foundation
import TestSupport
import Testing

/// The server's log on standard error: `--log-level` and `--log-format`,
/// or their environment variables (the option wins), and the fields of
/// the request lines.
@Suite struct ServerLogTests {
    /// Starts a server with `arguments`, sends a few requests (one with a
    /// token, which must not be logged), stops it, and returns its
    /// standard error.
    func log(_ arguments: [String], environment: [String: String]) throws -> String {
        let folder = try TemporaryFolder()
        _ = FileManager.default.createFile(atPath: folder.path("token"), contents: Data("log-token".utf8), attributes: [.posixPermissions: 0o600])
        let server = try ServerProcess(arguments + ["--token-file", "token"], environment: environment, folder: folder)
        let bearer = ["Authorization": "Bearer log-token"]
        #expect(try server.request("GET", "/v1/sync/rows", headers: bearer.merging(["X-Request-ID": "json-1"]) { $1 }).status == 200)
        #expect(try server.request("GET", "/v1/sync/rows").status == 401)
        #expect(try server.request("GET", "/nowhere\"quoted").status == 404)
        #expect(try server.stop() == 0)
        #expect(!server.errorOutput.contains("log-token"))
        return server.errorOutput
    }

    /// Each line parsed as a JSON object.
    func jsonLines(_ log: String) throws -> [[String: Any]] {
        try log.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
    }

    @Test func jsonLogLinesAreObjectsWithTheRequestFields() throws {
        let lines = try jsonLines(try log(["--log-format", "json"], environment: ["PLAYERS_SERVER_LOG_LEVEL": "info"]))
        for line in lines {
            for field in ["timestamp", "level", "label", "message"] {
                #expect(line[field] is String, "\(field) in \(line)")
            }
        }
        let requests = lines.filter { $0["message"] as? String == "request" }
        #expect(requests.count == 3)
        let listed = try #require(requests.first { $0["request_id"] as? String == "json-1" })
        #expect(listed["method"] as? String == "GET")
        #expect(listed["path"] as? String == "/v1/sync/rows")
        #expect(listed["status"] as? Int == 200)
        #expect(listed["duration_ms"] is Double || listed["duration_ms"] is Int)
        #expect(listed["level"] as? String == "info")
        #expect(requests.contains { $0["path"] as? String == "/nowhere\"quoted" && $0["status"] as? Int == 404 })
        #expect(requests.allSatisfy { ($0["request_id"] as? String)?.isEmpty == false })
    }

    @Test func theFormatComesFromTheEnvironmentWhenNoOptionIsGiven() throws {
        let lines = try jsonLines(try log([], environment: ["PLAYERS_SERVER_LOG_LEVEL": "info", "PLAYERS_SERVER_LOG_FORMAT": "json"]))
        #expect(lines.filter { $0["message"] as? String == "request" }.count == 3)
    }

    @Test func warningLevelLogsNoRequestLineWhateverTheEnvironmentSays() throws {
        let log = try log(["--log-level", "warning", "--log-format", "text"],
                          environment: ["PLAYERS_SERVER_LOG_LEVEL": "debug", "PLAYERS_SERVER_LOG_FORMAT": "json"])
        #expect(!log.contains("request"), "\(log)")
        #expect(!log.contains("{"), "\(log)")
    }

    @Test func textLogLinesCarryTheRequestFields() throws {
        let log = try log([], environment: ["PLAYERS_SERVER_LOG_LEVEL": "info"])
        let line = try #require(log.split(separator: "\n").first { $0.contains("request_id=json-1") }, "\(log)")
        for field in ["method=GET", "path=/v1/sync/rows", "status=200", "duration_ms="] {
            #expect(line.contains(field), "\(field) in \(line)")
        }
    }

    @Test(arguments: [["PLAYERS_SERVER_LOG_LEVEL": "loud"], ["PLAYERS_SERVER_LOG_FORMAT": "xml"]])
    func aWrongVariableIsAUsageError(_ environment: [String: String]) async throws {
        let result = try await ServerProcess.run([], environment: environment, in: try TemporaryFolder())
        #expect(result.status == 2)
        let (name, value) = try #require(environment.first)
        #expect(result.error.hasPrefix("players-server: \(name) must be one of "), "\(result.error)")
        #expect(result.error.contains("not '\(value)'"), "\(result.error)")
    }
}
