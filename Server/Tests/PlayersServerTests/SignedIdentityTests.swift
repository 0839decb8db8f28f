import Foundation
import PlayersShared
import ServerTestSupport
import SyncServerAuth
import TestSupport
import Testing

/// `players-server --auth jwt`, as a process: the tokens of
/// `players-server token` let their users in, every other token gets 401
/// with its reason (counted in `/metrics`), a write needs its table's
/// role, a long-poll ends with its token, SIGHUP reads the key file again,
/// and a table without access stops the server.
@Suite struct SignedIdentityTests {
    static let secret = String(repeating: "0123456789abcdef", count: 3)

    /// A server of Players' table with an HS256 key file, in its folder.
    let server: ServerProcess

    init() throws {
        let folder = try TemporaryFolder()
        try Self.writeSecret(Self.secret, in: folder)
        // At notice: the line of a key file read again.
        server = try ServerProcess(["--auth", "jwt", "--jwt-key-file", "jwt.secret", "--log-level", "notice"], folder: folder)
    }

    static func writeSecret(_ secret: String, in folder: TemporaryFolder) throws {
        try #require(FileManager.default.createFile(atPath: folder.path("jwt.secret"), contents: Data((secret + "\n").utf8),
                                                    attributes: [.posixPermissions: 0o600]))
    }

    /// `players-server token`'s output, for `arguments`.
    func token(_ arguments: [String]) async throws -> String {
        let result = try await ServerProcess.run(["token", "--jwt-key-file", "jwt.secret"] + arguments, in: server.folder)
        try #require(result.status == 0, "\(result.error)")
        return result.output.trimmingCharacters(in: .newlines)
    }

    func get(_ path: String, token: String?) throws -> RawHTTP.Response {
        try server.request("GET", path, headers: token.map { ["Authorization": "Bearer \($0)"] } ?? [:])
    }

    static func reason(_ response: RawHTTP.Response) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(response.body.utf8)) as? [String: [String: String]] else { return nil }
        return object["error"]?["reason"]
    }

    @Test func aTokenOfTheTokenCommandLetsItsUserRead() async throws {
        let reader = try await token(["--sub", "alice"])
        #expect(try get("/v1/sync/rows", token: reader).status == 200)
        #expect(!server.errorOutput.contains(reader))
        #expect(try server.stop() == 0)
    }

    @Test func eachBrokenTokenGets401WithItsReasonCountedInTheMetrics() async throws {
        let good = try await token(["--sub", "alice"])
        let parts = good.split(separator: ".").map(String.init)
        let keys = try await TokenKeys(contentsOf: server.path("jwt.secret"))
        let expired = try await keys.signedToken(user: "alice", roles: [], lifetime: 60, audience: nil, issuer: nil,
                                                 now: Date().addingTimeInterval(-3_600))
        let unsigned = "eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0." + parts[1] + "."
        let otherSecret = try TemporaryFolder()
        try Self.writeSecret(String(repeating: "x", count: 40), in: otherSecret)
        let forged = try await TokenKeys(contentsOf: otherSecret.path("jwt.secret"))
            .signedToken(user: "alice", roles: ["editor"], lifetime: 600, audience: nil, issuer: nil)
        let cases: [(String?, String)] = [
            (nil, "missing"), ("garbage", "malformed"), (unsigned, "algorithm_none"), (expired, "expired"), (forged, "bad_signature"),
        ]
        for (token, reason) in cases {
            let response = try get("/v1/sync/rows", token: token)
            #expect(response.status == 401, "\(reason)")
            #expect(Self.reason(response) == reason)
        }
        // The traffic is the operators': a user's token reads it only with the role.
        #expect(try get("/metrics", token: good).status == 403)
        let operator_ = try await token(["--sub", "ops", "--roles", "metrics"])
        let metrics = try get("/metrics", token: operator_).body
        for (_, reason) in cases {
            #expect(metrics.contains(#"players_server_token_refusals_total{reason="\#(reason)"} 1"#), "\(reason)")
        }
        // Never a token in the log.
        for token in [good, expired, forged] { #expect(!server.errorOutput.contains(token)) }
        #expect(try get("/metrics", token: nil).status == 401)
        #expect(try server.stop() == 0)
    }

    @Test func aWriteNeedsTheRoleOfItsTablesAccess() async throws {
        let body = #"{"values":{"name":"Arthur","score":10}}"#
        let headers = { (token: String) in ["Authorization": "Bearer \(token)", "Content-Type": "application/json"] }
        let reader = try await token(["--sub", "alice"])
        let refused = try server.request("POST", "/v1/rows/player", headers: headers(reader), body: body)
        #expect(refused.status == 403)
        #expect(refused.body.contains("writing the table player needs the role editor, which the token of alice does not give"))
        let editor = try await token(["--sub", "bob", "--roles", PlayersSchema.editorRole])
        #expect(try server.request("POST", "/v1/rows/player", headers: headers(editor), body: body).status == 201)
        #expect(try get("/v1/sync/rows", token: reader).body.contains("Arthur"))
        #expect(try server.stop() == 0)
    }

    /// A token valid for two more seconds (signed 58 s ago for 60): its
    /// long-poll of 50 s ends with it, 401, and the client comes back with
    /// a new one.
    @Test(.hangGuard) func aLongPollEndsWhenItsTokenExpires() async throws {
        let keys = try await TokenKeys(contentsOf: server.path("jwt.secret"))
        let closing = try await keys.signedToken(user: "alice", roles: [], lifetime: 60, audience: nil, issuer: nil,
                                                 now: Date().addingTimeInterval(-58))
        let cursor = try server.cursor(token: closing)
        let response = try get("/v1/sync/rows?since=\(cursor)&wait=50", token: closing)
        #expect(response.status == 401)
        #expect(Self.reason(response) == "expired")
        let operator_ = try await token(["--sub", "ops", "--roles", "metrics"])
        #expect(try get("/metrics", token: operator_).body.contains(#"players_server_token_refusals_total{reason="expired"} 1"#))
        #expect(try server.stop() == 0)
    }

    /// A rotated secret: after SIGHUP, the new one's tokens get in and the
    /// old one's do not.
    @Test func sighupReadsTheKeyFileAgain() async throws {
        let before = try await token(["--sub", "alice"])
        try Self.writeSecret(String(repeating: "rotated-", count: 5), in: server.folder)
        let after = try await token(["--sub", "alice"])
        #expect(try get("/v1/sync/rows", token: after).status == 401)
        server.signal(SIGHUP)
        try waitUntilBlocking("the key file read again") { server.errorOutput.contains("Read the JWT key file again.") }
        #expect(try get("/v1/sync/rows", token: after).status == 200)
        #expect(try get("/v1/sync/rows", token: before).status == 401)
        #expect(try server.stop() == 0)
    }

    /// Deny by default: Notes' declaration has no access, and such a
    /// server does not start.
    @Test func aTableWithoutAccessStopsTheServer() async throws {
        let declaration = #"{"format": 1, "tables": [{"name": "notebook", "primaryKey": "id", "conflicts": "server-wins", "columns": [{"name": "id", "type": "uuid", "required": true}]}]}"#
        try #require(FileManager.default.createFile(atPath: server.path("notes.json"), contents: Data(declaration.utf8)))
        let result = try await ServerProcess.run(["--auth", "jwt", "--jwt-key-file", "jwt.secret", "--schema", "notes.json", "--port", "0"],
                                                 in: server.folder)
        #expect(result.status == 1)
        #expect(result.error.hasPrefix("players-server: with --auth jwt, every table needs its access in the declaration (format 2), and notebook has none"))
        #expect(try server.stop() == 0)
    }
}

/// `players sync --watch --token-file F` against `--auth jwt`: its
/// long-poll ends with its token (401, expired), and the file, renewed
/// meanwhile, is read again before the next try.
@Suite struct RenewedTokenTests {
    @Test(.hangGuard) func aWatcherReadsItsTokenFileAgainAfterItsTokenExpires() async throws {
        let folder = try TemporaryFolder()
        try SignedIdentityTests.writeSecret(SignedIdentityTests.secret, in: folder)
        let server = try ServerProcess(["--auth", "jwt", "--jwt-key-file", "jwt.secret"], folder: folder)
        let keys = try await TokenKeys(contentsOf: server.path("jwt.secret"))
        func sign(_ user: String, roles: [String] = [], signedAgo: TimeInterval = 0, lifetime: TimeInterval = 3_600) async throws -> String {
            try await keys.signedToken(user: user, roles: roles, lifetime: lifetime, audience: nil, issuer: nil,
                                       now: Date().addingTimeInterval(-signedAgo))
        }
        let client = try CLISandbox()
        try await client.runChecked(["init"])
        let tokenFile = client.root.appendingPathComponent("token").path
        func writeToken(_ token: String) throws {
            try #require(FileManager.default.createFile(atPath: tokenFile, contents: Data((token + "\n").utf8),
                                                        attributes: [.posixPermissions: 0o600]))
        }
        // Valid for two more seconds (within the server's leeway of 60).
        let closing = try await sign("alice", signedAgo: 58, lifetime: 60)
        try writeToken(closing)
        let watcher = try WatchProcess(client, arguments: ["sync", "--watch", "--url", "http://127.0.0.1:\(server.port)", "--token-file", tokenFile])
        try watcher.waitForLines(1)
        try watcher.waitForErrorLine(containing: "retrying in")
        #expect(watcher.errorText.contains("expired"), "\(watcher.errorText)")
        try writeToken(try await sign("alice"))
        let editor = try await sign("bob", roles: ["editor"])
        #expect(try server.request("POST", "/v1/rows/player", headers: ["Authorization": "Bearer \(editor)", "Content-Type": "application/json"],
                                   body: #"{"values":{"name":"Zoé","score":7}}"#).status == 201)
        try watcher.waitForLines(2)
        #expect(watcher.lines[1].contains("pushed 0, +1 ~0 -0"), "\(watcher.lines)")
        #expect(!watcher.errorText.contains(closing))
        #expect(try watcher.stop(SIGINT) == 0)
        #expect(try server.stop() == 0)
    }
}

/// A change the user may not make, pushed by `players sync`: refused on
/// its own, the others of the batch applied and the pull done; the device
/// takes the server's state back and keeps the change with the conflicts,
/// with the reason.
@Suite struct RefusedChangeTests {
    @Test func aPlayerAddedByAReaderIsRefusedKeptWithTheConflictsAndTheSyncGoesOn() async throws {
        let folder = try TemporaryFolder()
        try SignedIdentityTests.writeSecret(SignedIdentityTests.secret, in: folder)
        let server = try ServerProcess(["--auth", "jwt", "--jwt-key-file", "jwt.secret"], folder: folder)
        let keys = try await TokenKeys(contentsOf: server.path("jwt.secret"))
        let editor = try await keys.signedToken(user: "bob", roles: ["editor"], lifetime: 3_600, audience: nil, issuer: nil)
        #expect(try server.request("POST", "/v1/rows/player", headers: ["Authorization": "Bearer \(editor)", "Content-Type": "application/json"],
                                   body: #"{"values":{"name":"Arthur","score":42}}"#).status == 201)
        let client = try CLISandbox()
        try await client.runChecked(["init"])
        let tokenFile = client.root.appendingPathComponent("token").path
        let reader = try await keys.signedToken(user: "alice", roles: [], lifetime: 3_600, audience: nil, issuer: nil)
        try #require(FileManager.default.createFile(atPath: tokenFile, contents: Data(reader.utf8), attributes: [.posixPermissions: 0o600]))
        try await client.runChecked(["add", "--name", "Zoé", "--score", "7"])
        let sync = try await client.run(["sync", "--url", "http://127.0.0.1:\(server.port)", "--token-file", tokenFile])
        #expect(sync.status == 0, "\(sync.error)")
        #expect(sync.output.contains("pushed 0, +1 ~0 -0, conflicts 1 (1 refused)"), "\(sync.output)")
        let list = try await client.run(["list"]).output
        #expect(list.contains("Arthur") && !list.contains("Zoé"), "\(list)")
        let conflicts = try await client.run(["conflicts"]).output
        #expect(conflicts.contains("Zoé, 7") && conflicts.contains("refused by the server: writing the table player needs the role editor"),
                "\(conflicts)")
        // Nothing is retried: the next sync pushes nothing.
        let again = try await client.run(["sync", "--url", "http://127.0.0.1:\(server.port)", "--token-file", tokenFile]).output
        #expect(again.contains("pushed 0, +0 ~0 -0, conflicts 0"), "\(again)")
        #expect(try server.stop() == 0)
    }
}
