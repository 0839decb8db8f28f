import Foundation
import ServerTestSupport
import SyncSchema
import TestSupport
import Testing

/// Notes' users on one `players-server --auth jwt`, on each store: each
/// user's devices hold their own notebooks and those shared with them,
/// nothing else; a share brings a notebook with its notes, an unshare
/// takes them off every device of the member; writes are checked against
/// the rows as stored.
@Suite struct NotesUsersTests {
    /// A server of Notes' declaration under signed identities, the tokens
    /// of its users in files, and a device per name.
    struct Users {
        let sandbox: StoreSandbox
        let server: ServerProcess
        var url: String { "http://127.0.0.1:\(server.port)" }

        static func start(_ sandbox: StoreSandbox) async throws -> Users {
            try await NotesCommandTests.writeSchema(in: sandbox.folder)
            try SignedIdentityTests.writeSecret(SignedIdentityTests.secret, in: sandbox.folder)
            let server = try ServerProcess(sandbox.serverArguments + ["--schema", sandbox.folder.path("notes.schema.json"),
                                                                      "--auth", "jwt", "--jwt-key-file", "jwt.secret"],
                                           environment: try sandbox.serverEnvironment, folder: sandbox.folder)
            return Users(sandbox: sandbox, server: server)
        }

        /// A token of `user`, signed by `players-server token`.
        func token(_ user: String, roles: [String] = []) async throws -> String {
            let result = try await ServerProcess.run(["token", "--jwt-key-file", "jwt.secret", "--sub", user]
                                                        + (roles.isEmpty ? [] : ["--roles", roles.joined(separator: ",")]),
                                                     in: sandbox.folder)
            try #require(result.status == 0, "\(result.error)")
            return result.output.trimmingCharacters(in: .newlines)
        }

        /// A new device of `user`, its token in `USER.token` (mode 0600),
        /// made by `notes init` with `initArguments`.
        func device(_ name: String, of user: String, initArguments: [String] = []) async throws -> Device {
            let file = sandbox.folder.path("\(user).token")
            if !FileManager.default.fileExists(atPath: file) {
                try #require(FileManager.default.createFile(atPath: file, contents: Data(try await token(user).utf8),
                                                            attributes: [.posixPermissions: 0o600]))
            }
            let device = Device(process: try NotesDeviceProcess(name, in: sandbox.folder, user: user), tokenFile: "\(user).token", url: url)
            try await device.process.runChecked(["init"] + initArguments)
            return device
        }

        func request(_ method: String, _ path: String, token: String, headers: [String: String] = [:], body: String = "") throws -> RawHTTP.Response {
            try server.request(method, path, headers: ["Authorization": "Bearer \(token)"].merging(headers) { $1 }, body: body)
        }
    }

    struct Device {
        let process: NotesDeviceProcess
        let tokenFile: String
        let url: String

        /// `notes sync`, whose digests must find the device holding exactly
        /// the rows its user reads (no repair).
        @discardableResult
        func sync() async throws -> String {
            let output = try await process.runChecked(["sync", "--url", url, "--token-file", tokenFile])
            #expect(!output.contains("differed from the server's"), "\(output)")
            return output
        }

        @discardableResult
        func run(_ arguments: [String]) async throws -> String { try await process.runChecked(arguments) }
        func add(_ arguments: [String]) async throws -> String { try await process.add(arguments) }

        /// The notebooks' and notes' names (titles), sorted.
        func names() async throws -> (notebooks: [String], notes: [String]) {
            let listing = try await process.list()
            return (listing.notebooks.map(\.name).sorted(), listing.notes.map(\.title).sorted())
        }

        /// `conflicts --json`, decoded.
        func conflicts() async throws -> [[String: Any]] {
            try JSONSerialization.jsonObject(with: Data(try await run(["conflicts", "--json"]).utf8)) as? [[String: Any]] ?? []
        }
    }

    @Test(arguments: StoreKind.allCases)
    func twoUsersSeeTheirOwnNotesAndAShareComesAndGoesWithItsNotes(_ kind: StoreKind) async throws {
        try await StoreSandbox.with(kind) { sandbox in
            let users = try await Users.start(sandbox)
            let laptop = try await users.device("alice-laptop", of: "alice")
            let phone = try await users.device("alice-phone", of: "alice")
            let bob = try await users.device("bob-laptop", of: "bob")
            let work = try await laptop.add(["notebook", "add", "Work"])
            _ = try await laptop.add(["note", "add", "--notebook", work, "--title", "Plan"])
            let home = try await laptop.add(["notebook", "add", "Home"])
            _ = try await laptop.add(["note", "add", "--notebook", home, "--title", "Groceries"])
            try await laptop.sync()
            let bobs = try await bob.add(["notebook", "add", "Bob's"])
            _ = try await bob.add(["note", "add", "--notebook", bobs, "--title", "Diary"])
            try await bob.sync()
            try await phone.sync()
            #expect(try await phone.names() == (["Home", "Work"], ["Groceries", "Plan"]))
            #expect(try await bob.names() == (["Bob's"], ["Diary"]))

            // Shared: Work and its note reach bob's next sync, not Home.
            try await laptop.run(["notebook", "share", work, "--with", "bob"])
            try await laptop.sync()
            try await bob.sync()
            #expect(try await bob.names() == (["Bob's", "Work"], ["Diary", "Plan"]))
            // A member writes the notebook's notes, not the notebook.
            _ = try await bob.add(["note", "add", "--notebook", work, "--title", "Agenda"])
            try await bob.run(["notebook", "rename", work, "Mine"])
            let refused = try await bob.sync()
            #expect(refused.contains("1 of them refused by the server"), "\(refused)")
            let kept = try await bob.conflicts()
            #expect(kept.count == 1)
            #expect((kept.first?["refusal"] as? String)?.contains("belongs to another user") == true, "\(kept)")
            try await phone.sync()
            #expect(try await phone.names() == (["Home", "Work"], ["Agenda", "Groceries", "Plan"]))

            // Unshared: Work and its notes leave bob's device; a change he
            // made to it meanwhile is kept as a refused change.
            try await laptop.run(["notebook", "unshare", work, "--with", "bob"])
            try await laptop.sync()
            let agenda = try #require(try await bob.process.list().notes.first { $0.title == "Agenda" })
            try await bob.run(["note", "edit", agenda.id, "--body", "late"])
            let afterUnshare = try await bob.sync()
            #expect(afterUnshare.contains("refused by the server"), "\(afterUnshare)")
            #expect(try await bob.names() == (["Bob's"], ["Diary"]))
            #expect(try await bob.conflicts().contains { ($0["row"] as? String) == agenda.id || ($0["id"] as? String) == agenda.id })
            try await laptop.sync()
            #expect(try await laptop.names() == (["Home", "Work"], ["Agenda", "Groceries", "Plan"]))
            #expect(try await laptop.process.list().notes.first { $0.id == agenda.id }?.body == nil, "the refused edit changed nothing")
            #expect(try users.server.stop() == 0)
        }
    }

    /// A member's device that watches the server (`notes sync --watch`):
    /// a share brings the notebook and its note, an unshare takes them off
    /// it, with no sync of its own. The membership change answers the
    /// watcher's long-poll (410), and the snapshot it then takes removes
    /// them. No latency is timed: the test waits on the device's rows.
    @Test(arguments: StoreKind.allCases)
    func anUnshareTakesTheNotebookOffAWatchingDeviceOfTheMember(_ kind: StoreKind) async throws {
        try await StoreSandbox.with(kind) { sandbox in
            let users = try await Users.start(sandbox)
            let laptop = try await users.device("alice-laptop", of: "alice")
            let phone = try await users.device("bob-phone", of: "bob")
            let work = try await laptop.add(["notebook", "add", "Work"])
            _ = try await laptop.add(["note", "add", "--notebook", work, "--title", "Plan"])
            try await laptop.sync()
            let watcher = try WatchProcess(
                try phone.process.makeProcess(["sync", "--watch", "--url", users.url, "--token-file", phone.tokenFile]),
                outputIn: sandbox.folder.url)
            try watcher.waitForLines(1)
            // The rows of the phone, read by a connection of the test's own.
            let rows = { () throws -> [Int] in
                try phone.process.withDatabase { queue in
                    try queue.read { db in
                        try ["notebook", "note"].map { try Int.fetchOne(db, sql: "SELECT count(*) FROM \($0)") ?? -1 }
                    }
                }
            }
            #expect(try rows() == [0, 0])

            try await laptop.run(["notebook", "share", work, "--with", "bob"])
            try await laptop.sync()
            try await waitUntil("the shared notebook and its note on bob's watching phone", every: .milliseconds(100)) {
                try rows() == [1, 1]
            }
            try await laptop.run(["notebook", "unshare", work, "--with", "bob"])
            try await laptop.sync()
            try await waitUntil("the notebook and its note off bob's watching phone", every: .milliseconds(100)) {
                try rows() == [0, 0]
            }
            #expect(try watcher.stop(SIGINT) == 0, "\(watcher.errorText)")
            #expect(try users.server.stop() == 0)
        }
    }

    /// What a client sends cannot widen what its user reads or writes:
    /// another user's cursor, a row named by id, a table named in `tables=`,
    /// a change to another user's row, a tombstone of one.
    @Test(arguments: StoreKind.allCases)
    func nothingAClientSendsReachesAnotherUsersRows(_ kind: StoreKind) async throws {
        try await StoreSandbox.with(kind) { sandbox in
            let users = try await Users.start(sandbox)
            let laptop = try await users.device("alice-laptop", of: "alice")
            let work = try await laptop.add(["notebook", "add", "Work"])
            let plan = try await laptop.add(["note", "add", "--notebook", work, "--title", "Secret plan"])
            let spare = try await laptop.add(["note", "add", "--notebook", work, "--title", "Spare"])
            try await laptop.sync()
            let alice = try await users.token("alice"), bob = try await users.token("bob")

            // Reads: nothing of alice's, by any path.
            let snapshot = try users.request("GET", "/v1/sync/rows?tables=note,notebook", token: bob)
            #expect(snapshot.status == 200)
            #expect(!snapshot.body.contains(plan) && !snapshot.body.contains(work) && !snapshot.body.contains("Secret"))
            #expect(try users.request("GET", "/v1/rows/note/\(plan)", token: bob).status == 404)
            #expect(try users.request("GET", "/v1/rows/note/\(plan)", token: alice).status == 200)
            let aliceCursor = try SyncPage.players(try users.request("GET", "/v1/sync/rows", token: alice).body).cursor
            let stolen = try users.request("GET", "/v1/sync/rows?since=\(aliceCursor)", token: bob)
            #expect(stolen.status == 410)
            #expect(stolen.body.contains("the cursor was issued to another user"))

            // Writes: refused, with no row of alice's in the answer, and
            // nothing changed.
            let bobCursor = try SyncPage.players(snapshot.body).cursor
            let changes = """
                {"protocolVersion":1,"changes":[
                {"mutationID":"\(UUID().uuidString)","operation":"upsert","table":"notebook","id":"\(work)","baseVersion":1,"values":{"sync_sealed":"VGFrZW4="}},
                {"mutationID":"\(UUID().uuidString)","operation":"upsert","table":"note","id":"\(UUID().uuidString)","values":{"notebook":"\(work)","sync_sealed":"UGxhbnRlZA=="}},
                {"mutationID":"\(UUID().uuidString)","operation":"delete","table":"note","id":"\(spare)","baseVersion":3}
                ]}
                """
            let pushed = try users.request("POST", "/v1/sync/changes", token: bob, headers: ["Content-Type": "application/json"], body: changes)
            #expect(pushed.status == 200, "\(pushed.body)")
            #expect(pushed.body.components(separatedBy: #""status":"refused""#).count == 4, "\(pushed.body)")
            #expect(!pushed.body.contains(SyncTable.sealedColumn), "no sealed value of alice's: \(pushed.body)")
            try await laptop.sync()
            #expect(try await laptop.names() == (["Work"], ["Secret plan", "Spare"]))

            // A tombstone of alice's note is not shown to bob.
            try await laptop.run(["note", "delete", spare])
            try await laptop.sync()
            let delta = try users.request("GET", "/v1/sync/rows?since=\(bobCursor)", token: bob)
            #expect(delta.status == 200)
            #expect(!delta.body.contains(spare), "\(delta.body)")
            #expect(try users.server.stop() == 0)
        }
    }

    /// A user's long-poll is not answered by another user's change, and
    /// the same request of an unchanged user gets 304; a share answers it.
    @Test(.hangGuard, arguments: StoreKind.allCases)
    func anotherUsersChangeNeitherAnswersALongPollNorChangesTheTag(_ kind: StoreKind) async throws {
        try await StoreSandbox.with(kind) { sandbox in
            let users = try await Users.start(sandbox)
            let laptop = try await users.device("alice-laptop", of: "alice")
            let bob = try await users.token("bob"), operator_ = try await users.token("ops", roles: ["metrics"])
            let metric = { (name: String) in
                try await onThread { try users.request("GET", "/metrics", token: operator_) }.body.split(separator: "\n")
                    .first { $0.hasPrefix(name + " ") }.flatMap { Double($0.split(separator: " ").last!) }
            }
            let openLongPolls = { try await metric("players_server_long_polls_open") }
            let cursor = try SyncPage.players(try users.request("GET", "/v1/sync/rows", token: bob).body).cursor
            let empty = try users.request("GET", "/v1/sync/rows?since=\(cursor)", token: bob)
            let tag = try #require(empty.head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("etag:") }?
                .dropFirst(5).trimmingCharacters(in: .whitespaces))
            // On a thread of its own: the request blocks its thread while held.
            async let held = onThread { try users.request("GET", "/v1/sync/rows?since=\(cursor)&wait=60", token: bob) }
            try await waitUntil("bob's long-poll is held") { try await openLongPolls() == 1 }
            let notebook = try await laptop.add(["notebook", "add", "Private"])
            try await laptop.sync()
            // Alice's commit did not answer it, nor change bob's delta.
            let again = try users.request("GET", "/v1/sync/rows?since=\(cursor)", token: bob, headers: ["If-None-Match": tag])
            #expect(again.status == 304)
            #expect(try await openLongPolls() == 1)
            #expect(try await metric("players_server_long_poll_wakes_total") ?? 0 == 0, "not even woken")
            // Shared with bob: his long-poll ends, and sends him to a
            // snapshot, which holds the notebook.
            try await laptop.run(["notebook", "share", notebook, "--with", "bob"])
            try await laptop.sync()
            let answer = try await held
            #expect(answer.status == 410)
            #expect(answer.body.contains("from before the user's memberships changed"), "\(answer.body)")
            #expect(try users.request("GET", "/v1/sync/rows", token: bob).body.contains(notebook))
            #expect(try users.server.stop() == 0)
        }
    }
}
