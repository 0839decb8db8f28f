import Foundation
import ServerTestSupport
import TestSupport
import Testing

/// `notes`, the engine's second app, as its users run it: the built
/// executable on encrypted files, syncing through the built
/// `players-server`, which serves what `notes schema` prints.
@Suite struct NotesCommandTests {
    /// A `players-server` on the declaration that `notes schema` printed,
    /// in `folder`, under signed identities (Notes' notebooks and notes are
    /// end-to-end), and alice's token in `alice.token`; its URL.
    func startServer(in folder: TemporaryFolder) async throws -> (ServerProcess, String) {
        try await Self.writeSchema(in: folder)
        try SignedIdentityTests.writeSecret(SignedIdentityTests.secret, in: folder)
        let server = try ServerProcess(["--schema", "notes.schema.json", "--auth", "jwt", "--jwt-key-file", "jwt.secret"], folder: folder)
        try await Self.writeToken(of: "alice", in: folder)
        return (server, "http://127.0.0.1:\(server.port)")
    }

    /// A token of the role `metrics`, for the server of ``startServer(in:)``.
    static func metricsToken(in folder: TemporaryFolder) async throws -> String {
        let result = try await ServerProcess.run(["token", "--jwt-key-file", "jwt.secret", "--sub", "ops", "--roles", "metrics"], in: folder)
        try #require(result.status == 0, "\(result.error)")
        return result.output.trimmingCharacters(in: .newlines)
    }

    /// `players-server token`'s token of `user`, in `folder`'s `USER.token`
    /// (mode 0600).
    static func writeToken(of user: String, in folder: TemporaryFolder) async throws {
        let result = try await ServerProcess.run(["token", "--jwt-key-file", "jwt.secret", "--sub", user], in: folder)
        try #require(result.status == 0, "\(result.error)")
        try #require(FileManager.default.createFile(atPath: folder.path("\(user).token"), contents: Data(result.output.utf8),
                                                    attributes: [.posixPermissions: 0o600]))
    }

    /// What `notes schema` prints, in `folder`'s `notes.schema.json`.
    static func writeSchema(in folder: TemporaryFolder) async throws {
        let process = ChildProcess()
        process.executableURL = try BuiltProducts.url("notes")
        process.arguments = ["schema"]
        process.environment = ["PATH": "/usr/bin:/bin"]
        let schema = try await run(process)
        try #require(schema.status == 0, "\(schema.error)")
        try Data(schema.output.utf8).write(to: folder.url("notes.schema.json"))
    }

    /// Two devices that synced a notebook "Work", with a note "Groceries"
    /// (body "Milk") when `withNote`, made on device `a`.
    struct Shared {
        let server: ServerProcess
        let url: String
        let a, b: NotesDeviceProcess
        let work: String
        let note: String?
    }

    func shared(withNote: Bool) async throws -> Shared {
        let folder = try TemporaryFolder()
        let (server, url) = try await startServer(in: folder)
        let (a, b) = (try NotesDeviceProcess("a", in: folder), try NotesDeviceProcess("b", in: folder))
        try await a.runChecked(["init"])
        try await b.runChecked(["init"])
        let work = try await a.add(["notebook", "add", "Work"])
        let note = withNote ? try await a.add(["note", "add", "--notebook", work, "--title", "Groceries", "--body", "Milk"]) : nil
        try await a.runChecked(["sync", "--url", url])
        try await b.runChecked(["sync", "--url", url])
        return Shared(server: server, url: url, a: a, b: b, work: work, note: note)
    }

    /// Notes are end-to-end, so the server's version of a note wins whole
    /// (it cannot merge columns it cannot read): of two edits of different
    /// columns, the first pushed stands, and the other device keeps its
    /// own in its conflicts.
    @Test func twoDevicesConvergeAndTheServersVersionOfANoteWins() async throws {
        let shared = try await shared(withNote: true)
        let (a, b, url, note) = (shared.a, shared.b, shared.url, try #require(shared.note))
        #expect(try await b.list() == a.list())

        try await a.runChecked(["note", "edit", note, "--title", "Shopping"])
        try await b.runChecked(["note", "edit", note, "--body", "Eggs"])
        for device in [a, b, a] { try await device.runChecked(["sync", "--url", url]) }
        let listing = try await a.list()
        #expect(listing == (try await b.list()))
        #expect(listing.notes == [.init(id: note, notebook: shared.work, title: "Shopping", body: "Milk")])
        #expect(try await a.runChecked(["conflicts"]) == "No conflicts.\n")
        let conflicts = try JSONSerialization.jsonObject(with: Data(try await b.runChecked(["conflicts", "--json"]).utf8)) as? [[String: Any]]
        #expect((conflicts?.first?["local"] as? [String: Any])?["body"] as? String == "Eggs")
        #expect(try shared.server.stop() == 0)
    }

    /// The same title changed on both devices: the second one's change
    /// loses, and `conflicts` prints both values as text.
    @Test func aLostChangeIsListedAsTextWithBothValues() async throws {
        let shared = try await shared(withNote: true)
        let (a, b, url) = (shared.a, shared.b, shared.url)
        let note = try #require(shared.note)
        try await a.runChecked(["note", "edit", note, "--title", "Shopping A"])
        try await a.runChecked(["sync", "--url", url])
        try await b.runChecked(["note", "edit", note, "--title", "Shopping B"])
        try await b.runChecked(["sync", "--url", url])
        let listed = try await b.runChecked(["conflicts"])
        #expect(listed.hasPrefix("note \(note): yours title \"Shopping B\" (changed 20"), "\(listed)")
        #expect(listed.hasSuffix("); the server's title \"Shopping A\" (version 3)\n"), "\(listed)")
        #expect(try shared.server.stop() == 0)
    }

    @Test func aNoteAddedToANotebookDeletedOnTheServerIsKeptAsAConflictThatOnlyTheServersStateSettles() async throws {
        let shared = try await shared(withNote: false)
        let (a, b, url) = (shared.a, shared.b, shared.url)
        // Device b adds a note to the notebook that device a deleted.
        try await a.runChecked(["notebook", "delete", shared.work])
        try await a.runChecked(["sync", "--url", url])
        let orphan = try await b.run(["note", "add", "--notebook", shared.work, "--title", "Late"])
        #expect(orphan.status == 0)
        try await b.runChecked(["sync", "--url", url])
        #expect(try await b.list().notes.isEmpty, "the note of a notebook deleted on the server is not kept as a note")
        let conflicts = try JSONSerialization.jsonObject(with: Data(try await b.runChecked(["conflicts", "--json"]).utf8)) as? [[String: Any]]
        #expect(conflicts?.count == 1)
        #expect((conflicts?.first?["local"] as? [String: Any])?["title"] as? String == "Late")
        // It cannot come back without its notebook; the server's state can be kept.
        let id = try #require(conflicts?.first?["id"] as? String)
        let keepLocal = try await b.run(["conflicts", "resolve", id, "--keep-local"])
        #expect(keepLocal.status == 1)
        #expect(keepLocal.error.contains("refers to a notebook row that is deleted, so it cannot come back"), "\(keepLocal.error)")
        #expect(try await b.runChecked(["conflicts", "resolve", id, "--keep-server"]).hasPrefix("Kept the server's value"))
        #expect(try await b.runChecked(["conflicts", "--json"]) == "[]\n")
        #expect(try shared.server.stop() == 0)
    }

    @Test func aRenamedNotebookIsRenamedOnTheOtherDevice() async throws {
        let shared = try await shared(withNote: false)
        let (a, b, url) = (shared.a, shared.b, shared.url)
        #expect(try await a.runChecked(["notebook", "rename", shared.work, "  Office "]) == "Renamed the notebook \(shared.work) to Office.\n")
        try await a.runChecked(["sync", "--url", url])
        try await b.runChecked(["sync", "--url", url])
        #expect(try await b.list().notebooks == [.init(id: shared.work, name: "Office")])
        let unknown = UUID().uuidString
        let missing = try await a.run(["notebook", "rename", unknown, "Home"])
        #expect(missing.status == 1)
        #expect(missing.error == "notes: there is no notebook \(unknown): 'notes list' shows them\n")
        let empty = try await a.run(["notebook", "rename", shared.work, " "])
        #expect(empty.status == 1, "\(empty.error)")
        #expect(try await a.list().notebooks == [.init(id: shared.work, name: "Office")])
        #expect(try shared.server.stop() == 0)
    }

    @Test func aDeletedNotebookTakesItsNotesOnEveryDevice() async throws {
        let shared = try await shared(withNote: true)
        let (a, b, url) = (shared.a, shared.b, shared.url)
        try await b.runChecked(["notebook", "delete", shared.work])
        try await b.runChecked(["sync", "--url", url])
        try await a.runChecked(["sync", "--url", url])
        #expect(try await a.list() == NotesDeviceProcess.Listing(notebooks: [], notes: []))
        #expect(try shared.server.stop() == 0)
    }

    @Test(arguments: StoreKind.allCases)
    func aServerRestoredFromABackupGetsBackWhatItLost(_ kind: StoreKind) async throws {
        try await StoreSandbox.with(kind) { sandbox in
            try await Self.writeSchema(in: sandbox.folder)
            try SignedIdentityTests.writeSecret(SignedIdentityTests.secret, in: sandbox.folder)
            let arguments = sandbox.serverArguments + ["--schema", sandbox.folder.path("notes.schema.json"), "--auth", "jwt",
                                                       "--jwt-key-file", "jwt.secret"]
            var server = try ServerProcess(arguments, environment: try sandbox.serverEnvironment, folder: sandbox.folder)
            try await Self.writeToken(of: "alice", in: sandbox.folder)
            var serverURL = "http://127.0.0.1:\(server.port)"
            let laptop = try NotesDeviceProcess("laptop", in: sandbox.folder)
            try await laptop.runChecked(["init"])
            let work = try await laptop.add(["notebook", "add", "Work"])
            let note = try await laptop.add(["note", "add", "--notebook", work, "--title", "Groceries"])
            try await laptop.runChecked(["sync", "--url", serverURL])
            let backup = sandbox.folder.path("backup")
            try await ServerHistoryTests.backUp(sandbox, to: backup)
            // After the backup: a notebook, and an edit of the note, that
            // the restore takes from the server, not from the laptop.
            _ = try await laptop.add(["notebook", "add", "Home"])
            try await laptop.runChecked(["note", "edit", note, "--body", "Milk"])
            try await laptop.runChecked(["sync", "--url", serverURL])
            #expect(try server.stop() == 0)
            try await ServerHistoryTests.restore(sandbox, from: backup)

            server = try ServerProcess(arguments, environment: try sandbox.serverEnvironment, folder: sandbox.folder)
            serverURL = "http://127.0.0.1:\(server.port)"
            // A phone changes the note on the restored server first.
            let phone = try NotesDeviceProcess("phone", in: sandbox.folder)
            try await phone.runChecked(["init"])
            try await phone.runChecked(["sync", "--url", serverURL])
            try await phone.runChecked(["note", "edit", note, "--body", "Eggs"])
            try await phone.runChecked(["sync", "--url", serverURL])

            let sync = try await laptop.runChecked(["sync", "--url", serverURL])
            #expect(sync.contains("The server was restored from a backup: 2 rows it lost were kept"), "\(sync)")
            // Home, which the server lost, is pushed again; the note's body,
            // which the phone changed since, is a conflict kept with both.
            let conflicts = try JSONSerialization.jsonObject(with: Data(try await laptop.runChecked(["conflicts", "--json"]).utf8)) as? [[String: Any]]
            #expect(conflicts?.count == 1)
            #expect((conflicts?.first?["local"] as? [String: Any])?["body"] as? String == "Milk")
            #expect((conflicts?.first?["server"] as? [String: Any])?["body"] as? String == "Eggs")
            try await phone.runChecked(["sync", "--url", serverURL])
            let listing = try await phone.list()
            #expect(listing == (try await laptop.list()))
            #expect(listing.notebooks.map(\.name).sorted() == ["Home", "Work"])
            #expect(listing.notes.map(\.body) == ["Eggs"])
            #expect(try server.stop() == 0)
        }
    }

    @Test func anotherServersDatabaseExitsWithSixAndNothingIsPushedOrMerged() async throws {
        let shared = try await shared(withNote: true)
        let other = try TemporaryFolder()
        let (otherServer, otherURL) = try await startServer(in: other)
        // A change waits: it must not reach the other server either.
        _ = try await shared.a.add(["notebook", "add", "Home"])
        let before = try await shared.a.list()
        let sync = try await shared.a.run(["sync", "--url", otherURL])
        #expect(sync.status == 6, "\(sync.error)")
        #expect(sync.error.contains("another database than the one this one synced with ("), "\(sync.error)")
        #expect(sync.error.contains("): nothing was pushed or merged; if this database should now sync with that server, "
            + "run 'notes sync --allow-other-server' once"), "\(sync.error)")
        #expect(try await shared.a.list() == before)
        let newcomer = try NotesDeviceProcess("newcomer", in: other)
        try FileManager.default.copyItem(atPath: shared.a.folder.path("alice.recovery"), toPath: other.path("alice.recovery"))
        try await newcomer.runChecked(["init"])
        try await newcomer.runChecked(["sync", "--url", otherURL])
        #expect(try await newcomer.list() == NotesDeviceProcess.Listing(notebooks: [], notes: []), "nothing was pushed to the other server")
        // The right server still takes it.
        try await shared.a.runChecked(["sync", "--url", shared.url])
        try await shared.b.runChecked(["sync", "--url", shared.url])
        #expect(try await shared.b.list() == before)
        #expect(try otherServer.stop() == 0)
        #expect(try shared.server.stop() == 0)
    }

    /// `--allow-other-server`: the change waiting is pushed to the other
    /// server, whose snapshot then replaces the rows synced with the first.
    @Test func allowingAnotherServerPushesTheLocalChangesThereAndTakesItsRows() async throws {
        let shared = try await shared(withNote: true)
        let other = try TemporaryFolder()
        let (otherServer, otherURL) = try await startServer(in: other)
        let home = try await shared.a.add(["notebook", "add", "Home"])
        try await shared.a.runChecked(["sync", "--url", otherURL, "--allow-other-server"])
        #expect(try await shared.a.list() == NotesDeviceProcess.Listing(notebooks: [.init(id: home, name: "Home")], notes: []))
        let newcomer = try NotesDeviceProcess("newcomer", in: other)
        try FileManager.default.copyItem(atPath: shared.a.folder.path("alice.recovery"), toPath: other.path("alice.recovery"))
        try await newcomer.runChecked(["init"])
        try await newcomer.runChecked(["sync", "--url", otherURL])
        #expect(try await newcomer.list() == (try await shared.a.list()))
        // From now on it syncs with the other server, without the flag.
        try await shared.a.runChecked(["sync", "--url", otherURL])
        #expect(try otherServer.stop() == 0)
        #expect(try shared.server.stop() == 0)
    }

    /// A title too long, written around `notes` (by SQL): the push names
    /// the row and the commands that mend it, and pushes nothing.
    @Test func aRowThatBreaksTheDeclarationIsNamedWithTheCommandsThatMendIt() async throws {
        let shared = try await shared(withNote: true)
        let (a, url) = (shared.a, shared.url)
        let note = try #require(shared.note)
        try a.withDatabase { queue in
            try queue.write { db in try db.execute(sql: "UPDATE note SET title = ? WHERE id = ?", arguments: [String(repeating: "x", count: 201), note]) }
        }
        let sync = try await a.run(["sync", "--url", url])
        #expect(sync.status == 1, "\(sync.error)")
        #expect(sync.error.hasPrefix("notes: the note row \(note) breaks the declaration (the title "), "\(sync.error)")
        #expect(sync.error.hasSuffix("nothing was pushed; change the row or delete it, then sync again: "
            + "'notes note edit \(note) --title …' or 'notes note delete \(note)'\n"), "\(sync.error)")
        try await a.runChecked(["note", "edit", note, "--title", "Groceries again"])
        try await a.runChecked(["sync", "--url", url])
        try await shared.b.runChecked(["sync", "--url", url])
        #expect(try await shared.b.list().notes.map(\.title) == ["Groceries again"])
        #expect(try shared.server.stop() == 0)
    }

    @Test func whatTheDeclarationRefusesIsRefusedBeforeAnythingIsWritten() async throws {
        let folder = try TemporaryFolder()
        let a = try NotesDeviceProcess("a", in: folder)
        try await a.runChecked(["init"])
        let work = try await a.add(["notebook", "add", "Work"])
        let long = try await a.run(["note", "add", "--notebook", work, "--title", String(repeating: "x", count: 201)])
        #expect(long.status == 1)
        #expect(long.error.hasPrefix("notes: the title "), "\(long.error)")
        let blank = try await a.run(["notebook", "add", "   "])
        #expect(blank.status == 1)
        #expect(try await a.list().notes.isEmpty)
        #expect(try await a.list().notebooks.count == 1)
    }

    @Test func aWrongPassphraseExitsWithThreeAndASecondInitChangesNothing() async throws {
        let folder = try TemporaryFolder()
        let a = try NotesDeviceProcess("a", in: folder)
        try await a.runChecked(["init"])
        let before = databaseFileBytes(folder.path("a.db"))
        let again = try await a.run(["init"])
        #expect(again.status == 1)
        #expect(again.error == "notes: a.db exists already: nothing was created\n")
        #expect(databaseFileBytes(folder.path("a.db")) == before)
        try Data("another secret\n".utf8).write(to: folder.url("pass"))
        let wrong = try await a.run(["list"])
        #expect(wrong.status == 3, "\(wrong.error)")
        #expect(!wrong.error.contains("secret"))
    }

    @Test func aTokenEchoedByTheServerIsHiddenInTheError() async throws {
        let token = "notes-token-5c2f"
        let server = try ScriptedHTTPServer.echoingAuthorization()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let a = try NotesDeviceProcess("a", in: folder)
        try await a.runChecked(["init"])
        guard FileManager.default.createFile(atPath: folder.path("token"), contents: Data(token.utf8),
                                             attributes: [.posixPermissions: 0o600]) else {
            throw TestFailure("cannot write the token file")
        }
        let sync = try await a.run(["sync", "--url", server.baseURL, "--token-file", "token"])
        #expect(sync.status == 5, "\(sync.error)")
        #expect(sync.error.contains("HTTP 403: Bearer <hidden> is not valid"), "\(sync.error)")
        #expect(!sync.error.contains(token) && !sync.output.contains(token))
    }

    /// Ctrl-C or SIGTERM while a sync waits for its second page: exit
    /// 128 + the signal, one line, the staged page dropped, nothing
    /// merged.
    @Test(.hangGuard, arguments: [SIGINT, SIGTERM])
    func anInterruptedSyncEmptiesItsStagingAndExitsWithTheSignal(_ signal: Int32) async throws {
        // Keys before rows: the identity taken, no key wrapped to alice;
        // then the first page, a notebook sealed under a key the device
        // does not hold (it waits, staged), and the second held.
        let firstPage = #"{"protocolVersion":1,"kind":"snapshot","complete":false,"cursor":"\#(ScriptedCursor.at(30))","#
            + #""next":"/v1/sync/rows?page=2","rows":[{"table":"notebook","id":"0CCF2B1F-9D58-4B77-9ADD-B410E1E65D34","#
            + #""version":3,"values":{"sync_sealed":"AAAA"}}],"tombstones":[]}"#
        let server = try ScriptedHTTPServer { request, number in
            if request.path.hasPrefix("/v1/keys/identity") {
                return .json(#"{"protocolVersion":1,"status":"published","user":"alice"}"#, status: 201)
            }
            if request.path.hasPrefix("/v1/keys/wrapped") { return .json(#"{"protocolVersion":1,"keys":[]}"#) }
            return number == 2 ? .json(firstPage) : [.holdUntilStopped]
        }
        defer { server.stop() }
        let folder = try TemporaryFolder()
        try #require(FileManager.default.createFile(atPath: folder.path("alice.token"), contents: Data("scripted-token\n".utf8),
                                                    attributes: [.posixPermissions: 0o600]))
        let device = try NotesDeviceProcess("a", in: folder)
        try await device.runChecked(["init"])
        let process = try device.makeProcess(["sync", "--url", server.baseURL])
        let sync = Task { try await run(process) }
        try await waitUntil("the sync is staging and waiting for the server") {
            server.requests.count >= 4 && (try? device.stagedRows()) == 1
        }
        kill(process.processIdentifier, signal)
        let result = try await sync.value
        #expect(result.status == 128 + signal, "\(result.error)")
        #expect(result.error == "notes: interrupted: the sync was abandoned and nothing was merged; the next 'notes sync' takes it up\n")
        #expect(try device.stagedRows() == 0)
        #expect(try await device.list() == NotesDeviceProcess.Listing(notebooks: [], notes: []))
    }

    /// A server that sends a notebook whose sealed value is not one: the
    /// sync names it, in its text and in `--json`, and merges nothing of it.
    @Test func aRefusedRowIsNamedInTheReportAndItsJSON() async throws {
        let page = #"{"protocolVersion":1,"kind":"snapshot","complete":true,"cursor":"\#(ScriptedCursor.at(3))","#
            + #""rows":[{"table":"notebook","id":"0CCF2B1F-9D58-4B77-9ADD-B410E1E65D34","#
            + #""version":3,"values":{"sync_sealed":"AAAA"}}],"tombstones":[]}"#
        let server = try ScriptedHTTPServer { request, _ in
            if request.path.hasPrefix("/v1/keys/identity") {
                return .json(#"{"protocolVersion":1,"status":"published","user":"alice"}"#, status: 201)
            }
            if request.path.hasPrefix("/v1/keys/wrapped") { return .json(#"{"protocolVersion":1,"keys":[]}"#) }
            return .json(page)
        }
        defer { server.stop() }
        let folder = try TemporaryFolder()
        try #require(FileManager.default.createFile(atPath: folder.path("alice.token"), contents: Data("scripted-token\n".utf8),
                                                    attributes: [.posixPermissions: 0o600]))
        let (device, other) = (try NotesDeviceProcess("a", in: folder), try NotesDeviceProcess("b", in: folder))
        for each in [device, other] { try await each.runChecked(["init"]) }
        let text = try await device.runChecked(["sync", "--url", server.baseURL])
        #expect(text.contains("Refused: the sealed value of the notebook row 0CCF2B1F-9D58-4B77-9ADD-B410E1E65D34 is not valid ("), "\(text)")
        let json = try JSONSerialization.jsonObject(with: Data(try await other.runChecked(["sync", "--url", server.baseURL, "--json"]).utf8))
            as? [String: Any]
        let refused = json?["refusedRows"] as? [[String: Any]]
        #expect(refused?.map { $0["kind"] as? String } == ["malformed"], "\(json ?? [:])")
        #expect(refused?.first?["id"] as? String == "0CCF2B1F-9D58-4B77-9ADD-B410E1E65D34")
        #expect((json?["keys"] as? [String: Any])?["received"] as? Int == 0)
        for each in [device, other] { #expect(try await each.list() == NotesDeviceProcess.Listing(notebooks: [], notes: [])) }
    }

    /// `export` then `import` into a new database: the same notebooks and
    /// notes, ids kept; through a private file, and through the standard
    /// streams.
    @Test func anExportImportsIntoAnotherDatabaseAsItWas() async throws {
        let folder = try TemporaryFolder()
        let (a, b, c) = (try NotesDeviceProcess("a", in: folder), try NotesDeviceProcess("b", in: folder), try NotesDeviceProcess("c", in: folder))
        for device in [a, b, c] { try await device.runChecked(["init"]) }
        let work = try await a.add(["notebook", "add", "Work"])
        _ = try await a.add(["note", "add", "--notebook", work, "--title", "Groceries", "--body", "Milk\n\"and\" eggs"])
        _ = try await a.add(["note", "add", "--notebook", work, "--title", "Zoé"])
        #expect(try await a.runChecked(["export", "notes.jsonl"]) == "Exported 3 rows to notes.jsonl.\n")
        let attributes = try FileManager.default.attributesOfItem(atPath: folder.path("notes.jsonl"))
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(try await b.runChecked(["import", "notes.jsonl"]) == "Imported 1 notebook and 2 notes.\n")
        #expect(try await b.list() == (try await a.list()))
        let exported = try await a.runChecked(["export", "-"])
        #expect(exported == (try String(contentsOf: folder.url("notes.jsonl"), encoding: .utf8)))
        let imported = try await c.run(["import", "-"], input: exported)
        #expect(imported.status == 0, "\(imported.error)")
        #expect(try await c.list() == (try await a.list()))
        let again = try await a.run(["export", "notes.jsonl"])
        #expect(again.status == 1 && again.error.contains("notes.jsonl already exists"), "\(again.error)")
        try await a.runChecked(["export", "notes.jsonl", "--force"])
    }

    /// `import -` from a terminal would wait for lines nobody types; an
    /// empty pipe holds none: both refused, nothing imported.
    @Test func anImportFromATerminalOrAnEmptyPipeIsRefused() async throws {
        let folder = try TemporaryFolder()
        let device = try NotesDeviceProcess("a", in: folder)
        try await device.runChecked(["init"])
        let terminal = try await runOnTerminal(try device.makeProcess(["import", "-"]))
        #expect(terminal.status == 2)
        #expect(terminal.output == "notes: standard input is a terminal: pipe or redirect the file into 'notes import -', or give its path\n")
        let empty = try await device.run(["import", "-"], input: "")
        #expect(empty.status == 1)
        #expect(empty.error == "notes: standard input is empty: pipe or redirect the lines into 'notes import -'\n")
    }

    /// A bad line anywhere: its number and why, and nothing of the lines
    /// before it is added.
    @Test(arguments: [
        (#"{"id":"5C2F0D9E-8A1B-4C3D-9E4F-0A1B2C3D4E5F","table":"notebook","values":{"name":""}}"#, "line 2: $.values.name: "),
        (#"{"id":"5C2F0D9E-8A1B-4C3D-9E4F-0A1B2C3D4E5F","table":"tag","values":{}}"#, #"line 2: $.table: "tag" is not a table of this declaration"#),
        ("not json", "line 2: $: "),
        (#"{"id":"5C2F0D9E-8A1B-4C3D-9E4F-0A1B2C3D4E5F","table":"note","values":{"notebook":"0CCF2B1F-9D58-4B77-9ADD-B410E1E65D34","title":"Orphan","body":null}}"#,
         "line 2: the note's notebook is neither in the database nor on an earlier line"),
        (#"{"id":"0E42CFD4-B6CA-4CC9-A1CE-408B94824A58","table":"notebook","values":{"name":"Again"}}"#,
         "line 2: the notebook 0E42CFD4-B6CA-4CC9-A1CE-408B94824A58 exists already"),
    ])
    func aRefusedLineIsNamedAndNothingIsImported(_ line: String, _ error: String) async throws {
        let folder = try TemporaryFolder()
        let device = try NotesDeviceProcess("a", in: folder)
        try await device.runChecked(["init"])
        let first = #"{"id":"0E42CFD4-B6CA-4CC9-A1CE-408B94824A58","table":"notebook","values":{"name":"Home"}}"#
        let result = try await device.run(["import", "-"], input: first + "\n" + line + "\n")
        #expect(result.status == 1)
        #expect(result.error.hasPrefix("notes: " + error), "\(result.error)")
        #expect(result.error.hasSuffix(": nothing was imported\n"), "\(result.error)")
        #expect(try await device.list() == NotesDeviceProcess.Listing(notebooks: [], notes: []))
    }

    @Test func theDatabaseAndItsKeyAreRequired() async throws {
        let folder = try TemporaryFolder()
        let process = ChildProcess()
        process.executableURL = try BuiltProducts.url("notes")
        process.arguments = ["list"]
        process.environment = ["PATH": "/usr/bin:/bin"]
        process.currentDirectoryURL = folder.url
        let result = try await run(process)
        #expect(result.status == 2)
        #expect(result.error.contains("--database"))
    }

    /// `notes sync --watch`: after its first sync, the watching device
    /// holds a long-poll of the engine's delta; a note that another device
    /// pushes comes through it, printed at once; Ctrl-C stops it with 0.
    /// `notes sync --watch` on `device`, its output in a folder of its
    /// own (the devices of a test share one).
    func watching(_ device: NotesDeviceProcess, _ url: String) throws -> WatchProcess {
        let folder = device.folder.url("\(device.name)-watch")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return try WatchProcess(try device.makeProcess(["sync", "--watch", "--url", url]), outputIn: folder)
    }

    /// `note add` on a watching device's database (another process) ends
    /// its held long-poll: the note is pushed at once, and reaches the
    /// other watching device through that one's long-poll, long before
    /// the first one's wait (50 s) would have ended
    /// (``SyncWatchTests/underTheLongPollsWait``).
    @Test func aNoteAddedOnAWatchingDeviceReachesAnotherWatchingDeviceWithoutWaitingForItsLongPoll() async throws {
        let shared = try await shared(withNote: false)
        let (a, b, url, server) = (shared.a, shared.b, shared.url, shared.server)
        let (watchingA, watchingB) = (try watching(a, url), try watching(b, url))
        for watcher in [watchingA, watchingB] { try watcher.waitForLines(2) }
        let metrics = try await Self.metricsToken(in: a.folder)
        try waitUntilBlocking("both devices' long-polls held") { try server.metric("players_server_long_polls_open", token: metrics) == 2 }
        let note = try await a.add(["note", "add", "--notebook", shared.work, "--title", "Groceries"])
        try waitUntilBlocking("the note on the other device", timeout: SyncWatchTests.underTheLongPollsWait) {
            watchingB.lines.contains { $0.hasPrefix("Pulled: +1 ~0 -0") }
        }
        try waitUntilBlocking("the push on the first device", timeout: SyncWatchTests.underTheLongPollsWait) {
            watchingA.lines.contains("Pushed: 1 applied, 0 in conflict (kept: 'notes conflicts').")
        }
        #expect(try await b.list().notes.map(\.id) == [note])
        for watcher in [watchingA, watchingB] {
            #expect(!watcher.errorText.contains("retrying"), "\(watcher.errorText)")
            #expect(try watcher.stop(SIGINT) == 0)
        }
        #expect(try server.stop() == 0)
    }

    @Test func aWatchingDeviceGetsAnotherDevicesNoteThroughItsHeldLongPoll() async throws {
        let shared = try await shared(withNote: false)
        let (a, b, url, server) = (shared.a, shared.b, shared.url, shared.server)
        let watcher = try WatchProcess(try b.makeProcess(["sync", "--watch", "--url", url]), outputIn: b.folder.url)
        try watcher.waitForLines(2)
        let metrics = try await Self.metricsToken(in: b.folder)
        try waitUntilBlocking("the watching device's long-poll held by players-server") {
            try server.metric("players_server_long_polls_open", token: metrics) == 1
        }
        let note = try await a.add(["note", "add", "--notebook", shared.work, "--title", "Groceries"])
        try await a.runChecked(["sync", "--url", url])
        try watcher.waitForLines(4)
        #expect(watcher.lines[2] == "Pushed: 0 applied, 0 in conflict (kept: 'notes conflicts').")
        #expect(watcher.lines[3].hasPrefix("Pulled: +1 ~0 -0, cursor "), "\(watcher.lines)")
        #expect(try await b.list().notes.map(\.id) == [note])
        #expect(!watcher.errorText.contains("retrying"), "\(watcher.errorText)")
        #expect(try watcher.stop(SIGINT) == 0)
        #expect(watcher.lines.last == "Stopped watching \(url).")
        #expect(try server.stop() == 0)
    }
}
