import Foundation
import ServerTestSupport
import TestSupport
import Testing

/// The built `players-server` as operators run it: its log lines, the drain
/// at shutdown, `/ready` when the database goes away (the commands of
/// Docs/Server.md's "Operations" run in DocumentationTests).
@Suite struct OperationsTests {
    /// A folder with a token file of mode 0600.
    func folderWithToken(_ token: String) throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        _ = FileManager.default.createFile(atPath: folder.path("token"), contents: Data(token.utf8), attributes: [.posixPermissions: 0o600])
        return folder
    }

    @Test func eachRequestLogsOneLineWithItsIDAndNoSecret() throws {
        let token = "t0ken-never-logged"
        let server = try ServerProcess(["--token-file", "token"], environment: ["PLAYERS_SERVER_LOG_LEVEL": "info"], folder: try folderWithToken(token))
        let bearer = ["Authorization": "Bearer \(token)"]
        let listed = try server.request("GET", "/v1/sync/rows?limit=7", headers: bearer.merging(["X-Request-ID": "trace-7"]) { $1 })
        #expect(listed.status == 200)
        #expect(listed.head.contains("X-Request-ID: trace-7"))
        let created = try server.request("POST", "/v1/rows/player", headers: bearer.merging(["Content-Type": "application/json"]) { $1 },
                                         body: #"{"values":{"name":"Body-Name-Never-Logged","score":1}}"#)
        #expect(created.status == 201)
        let generated = try #require(created.head.split(separator: "\r\n").first { $0.hasPrefix("X-Request-ID: ") }?.dropFirst(14))
        #expect(try server.stop() == 0)
        let lines = server.errorOutput.split(separator: "\n")
        let listLine = try #require(lines.first { $0.contains("request_id=trace-7") }, "\(server.errorOutput)")
        for field in ["method=GET", "path=/v1/sync/rows ", "route=/v1/sync/rows ", "status=200", "duration_ms="] {
            #expect(listLine.contains(field), "\(field) in \(listLine)")
        }
        let createLine = try #require(lines.first { $0.contains("request_id=\(generated)") }, "\(server.errorOutput)")
        #expect(createLine.contains("method=POST") && createLine.contains("status=201"))
        for secret in [token, "Bearer", "Body-Name-Never-Logged", "limit=7"] {
            #expect(!server.errorOutput.contains(secret), "\(secret)")
        }
    }

    /// The drain lasts the hang guard: a request during it is answered
    /// however slow the machine (the test lasts as long).
    @Test(arguments: StoreKind.allCases)
    func sigtermDrainsWithReady503ThenExits(_ kind: StoreKind) async throws {
        try await StoreSandbox.with(kind) { sandbox in
            let server = try ServerProcess(sandbox.serverArguments + ["--drain-time", "60s"], environment: try sandbox.serverEnvironment)
            #expect(try server.request("GET", "/ready").status == 200)
            let (ready, players, status) = try await onThread {
                kill(server.process.processIdentifier, SIGTERM)
                var ready: RawHTTP.Response?
                try waitUntilBlocking("GET /ready of players-server on port \(server.port) to answer 503 after SIGTERM") {
                    ready = try server.request("GET", "/ready")
                    return ready?.status == 503
                }
                let players = try server.request("GET", "/v1/sync/rows").status
                return (ready, players, try server.stop(SIGTERM, within: hangGuard * 2))
            }
            #expect(ready?.status == 503)
            #expect(ready?.body == #"{"error":{"message":"the server is shutting down: send requests to another instance"}}"#)
            #expect(players == 200)
            #expect(status == 0, "\(server.errorOutput)")
        }
    }

    @Test func readyIs503OnceThePostgreSQLDatabaseRefusesConnections() async throws {
        try await StoreSandbox.with(.postgres) { sandbox in
            let server = try ServerProcess(sandbox.serverArguments, environment: try sandbox.serverEnvironment)
            #expect(try server.request("GET", "/ready").status == 200)
            try await sandbox.refuseConnections()
            let ready = try await onThread { try server.request("GET", "/ready") }
            #expect(ready.status == 503)
            #expect(ready.body.contains("the store"), "\(ready.body)")
            let url = try sandbox.postgresURLString()
            let password = try #require(URLComponents(string: url)?.password)
            #expect(!ready.body.contains(password) && !ready.body.contains("postgres://") && !ready.body.contains("127.0.0.1"))
            #expect(try server.request("GET", "/health").status == 200)
            let metrics = try server.request("GET", "/metrics").body
            #expect(metrics.contains("players_server_store_errors_total 1"), "\(metrics)")
            #expect(try server.stop() == 0)
        }
    }
}
