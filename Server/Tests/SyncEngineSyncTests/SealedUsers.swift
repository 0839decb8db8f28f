import CipherDB
import CipherSync
import Foundation
import ServerTestSupport
import SyncEngine
import SyncSchema
import SyncSealing
import SyncServer
import SyncServerAuth
import TestSupport
import Testing

/// A server of ``SyncSchema/testUsersSealed`` under signed identities, on
/// loopback, on one kind of store, with a token for each of alice, bob and
/// carol: what the tests of end-to-end tables sync through.
struct SealedUsers: Sendable {
    let server: APITestServer
    let url: URL
    let tokens: [String: String]

    static func with(_ kind: StoreKind, _ body: @Sendable (SealedUsers) async throws -> Void) async throws {
        let folder = try TemporaryFolder()
        try #require(FileManager.default.createFile(atPath: folder.path("jwt.secret"), contents: Data(String(repeating: "k", count: 40).utf8),
                                                    attributes: [.posixPermissions: 0o600]))
        let keys = try await TokenKeys(contentsOf: folder.path("jwt.secret"))
        // As players-server serves a declaration: its server view.
        try await APITestServer.with(kind, tokenVerifier: TokenVerifier(keys: keys), schema: SyncSchema.testUsersSealed.serverView) { server in
            var tokens: [String: String] = [:]
            for user in ["alice", "bob", "carol"] {
                tokens[user] = try await keys.signedToken(user: user, roles: [], lifetime: 3_600, audience: nil, issuer: nil)
            }
            try await body(SealedUsers(server: server, url: URL(string: "http://127.0.0.1:\(server.client.port)")!, tokens: tokens))
        }
    }

    /// A new device of `user`, whose identity is the one `recoveryKey`
    /// derives.
    func device(of user: String, recoveryKey: RecoveryKey) throws -> SealedDevice {
        let device = try NotesDevice(schema: .testUsersSealed, firstRelease: .testUsersSealed)
        let identity = try recoveryKey.identity()
        try device.dbQueue.write { db in
            try db.saveSyncIdentity(SyncStoredIdentity(publicKey: identity.publicKey.bytes, secretKey: identity.secretKey))
        }
        return SealedDevice(device: device, user: user, users: self)
    }

    /// A transport with `user`'s token.
    func transport(_ user: String) -> any HTTPTransport {
        let token = tokens[user]
        return fastTransport { $0.bearerTokenSource = { token } }
    }

    /// The body of `GET path` as `user` sees it.
    func get(_ path: String, as user: String) async throws -> String {
        let response = try await transport(user).send(HTTPRequest(url: URL(string: path, relativeTo: url)!.absoluteURL))
        #expect(response.status == 200, "\(path): \(response.status)")
        return String(decoding: response.body, as: UTF8.self)
    }

    /// Every row the server stores, as text: what its store holds.
    func storedText() async throws -> String {
        try await UsersRun.serverRows(server.engine).values.map { "\($0.key) \($0.values ?? [:])" }.sorted().joined(separator: "\n")
    }
}

/// A device of one user in ``SealedUsers``.
struct SealedDevice: Sendable {
    let device: NotesDevice
    let user: String
    let users: SealedUsers

    /// A sync with the user's token, through `hostile` when given: a
    /// server that rewrites what it answers.
    @discardableResult
    func sync(dryRun: Bool = false,
              through hostile: (@Sendable (HTTPRequest, HTTPResponse) throws -> HTTPResponse)? = nil) async throws -> SyncPushPullReport {
        let transport = users.transport(user)
        guard let hostile else { return try await device.syncReport(users.url, transport: transport, dryRun: dryRun) }
        return try await device.syncReport(users.url, transport: RewritingTransport(base: transport, rewrite: hostile), dryRun: dryRun)
    }

    /// How many rows wait for their key on the device.
    func rowsWaitingForKeys() throws -> Int {
        try device.dbQueue.read { db in
            try db.tableExists("sync_waiting_row") ? Int.fetchOne(db, sql: "SELECT count(*) FROM sync_waiting_row") ?? 0 : 0
        }
    }

    func execute(_ sql: String, _ arguments: StatementArguments = []) throws {
        try device.execute(sql, arguments)
    }

    /// A notebook named `name` with one note titled `title`, shared with
    /// `member`: their ids and the membership's.
    @discardableResult
    func addNotebook(_ name: String, note title: String, sharedWith member: String) throws -> (notebook: UUID, note: UUID, membership: UUID) {
        let (notebook, note, membership) = (UUID(), UUID(), UUID())
        try execute("INSERT INTO notebook (id, name) VALUES (?, ?)", [notebook.uuidString, name])
        try execute("INSERT INTO note (id, notebook, title) VALUES (?, ?, ?)", [note.uuidString, notebook.uuidString, title])
        try execute("INSERT INTO member (id, notebook, user) VALUES (?, ?, ?)", [membership.uuidString, notebook.uuidString, member])
        return (notebook, note, membership)
    }

    /// A notebook named `name`, without notes, shared with `member`: its id.
    func shareNotebook(_ name: String, with member: String) throws -> UUID {
        let notebook = UUID()
        try execute("INSERT INTO notebook (id, name) VALUES (?, ?)", [notebook.uuidString, name])
        try execute("INSERT INTO member (id, notebook, user) VALUES (?, ?, ?)", [UUID().uuidString, notebook.uuidString, member])
        return notebook
    }

    /// One column of one row, or nil when the device has no such row.
    func value(_ table: String, _ id: UUID, _ column: String) throws -> String? {
        try device.dbQueue.read { db in
            try String.fetchOne(db, sql: "SELECT \(column) FROM \(table) WHERE id = ?", arguments: [id.uuidString])
        }
    }
}

/// A server that rewrites its answers: each response passes through
/// `rewrite` before the client reads it.
struct RewritingTransport: HTTPTransport {
    let base: any HTTPTransport
    let rewrite: @Sendable (HTTPRequest, HTTPResponse) throws -> HTTPResponse

    func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try rewrite(request, try await base.send(request))
    }
}

extension HTTPResponse {
    /// A page of `GET /v1/sync/rows` with its rows edited: each row is
    /// `{"id","table","values","version"}`, as JSON objects. Any other
    /// answer is left as it is.
    func editingRows(of request: HTTPRequest, _ edit: (inout [[String: Any]]) throws -> Void) throws -> HTTPResponse {
        guard request.method == "GET", request.url.path.hasSuffix("/v1/sync/rows"), status == 200,
              var page = try JSONSerialization.jsonObject(with: body) as? [String: Any],
              var rows = page["rows"] as? [[String: Any]] else { return self }
        try edit(&rows)
        page["rows"] = rows
        var edited = self
        edited.body = try JSONSerialization.data(withJSONObject: page, options: [.sortedKeys])
        return edited
    }
}
