import Foundation
import ServerTestSupport
import SyncSchema
import TestSupport
import Testing

/// `players-server --schema FILE`: exactly the declared tables synced,
/// in the server's encrypted file; without it, Players' table; a
/// declaration it cannot serve, or a database of other tables, stops it
/// at start, naming what to do.
@Suite struct SchemaOptionTests {
    static let json = ["Content-Type": "application/json"]

    /// The notes' declaration, written in `folder`.
    func writeDeclaration(_ name: String = "notes.json", _ data: Data = SyncSchema.testNotes.json(), in folder: TemporaryFolder) throws {
        try data.write(to: folder.url(name))
    }

    /// Pushes a notebook named Work through `server`; its id.
    func pushNotebook(_ server: ServerProcess) throws -> UUID {
        let notebook = UUID()
        let change = SyncChange(mutationID: UUID(), operation: .upsert,
                                row: try SyncSchema.testNotes.table("notebook")!.row(id: notebook, values: ["name": .text("Work")]),
                                baseVersion: nil)
        let pushed = try server.request("POST", "/v1/sync/changes", headers: Self.json,
                                        body: String(decoding: SyncChangeBatch(changes: [change]).jsonData(), as: UTF8.self))
        #expect(pushed.status == 200, "\(pushed.body)")
        return notebook
    }

    @Test func theDeclaredTablesAreServedAloneAndKeptInTheFile() async throws {
        let folder = try TemporaryFolder()
        try writeDeclaration(in: folder)
        let arguments = ["--database", "server.db", "--schema", "notes.json"]
        var server = try ServerProcess(arguments, environment: ServerDatabase.environment, folder: folder)
        let notebook = try pushNotebook(server)
        #expect(try server.stop() == 0)

        // The same file, opened again: the row is there, and no player
        // table is served.
        server = try ServerProcess(arguments, environment: ServerDatabase.environment, folder: folder)
        let page = try SyncPage.decode(Data(try server.request("GET", "/v1/sync/rows").body.utf8), schema: .testNotes)
        #expect(page.rows.map(\.row.id) == [notebook])
        #expect(page.digests?.map(\.table) == ["comment", "note", "notebook", "pin", "share"])
        #expect(try server.request("GET", "/v1/rows/player/\(UUID())").status == 404)
        #expect(try server.request("GET", "/v1/sync/rows?tables=player").status == 400)
        #expect(try server.stop() == 0)
    }

    /// `players schema` prints Players' declaration: given with another
    /// app's, the server serves both, and seeds the players.
    @Test func playersDeclarationServesThePlayersBesideAnotherApp() async throws {
        let folder = try TemporaryFolder()
        try writeDeclaration(in: folder)
        let players = ChildProcess()
        players.executableURL = try BuiltProducts.url("players")
        players.arguments = ["schema"]
        let printed = try await TestSupport.run(players)
        #expect(printed.status == 0, "\(printed.error)")
        try writeDeclaration("players.json", Data(printed.output.utf8), in: folder)
        let server = try ServerProcess(["--schema", "players.json", "--schema", "notes.json", "--seed", "2"], folder: folder)
        let notebook = try pushNotebook(server)
        let page = try SyncPage.decode(Data(try server.request("GET", "/v1/sync/rows").body.utf8), schema: .playersAndTestNotes)
        #expect(page.rows.filter { $0.row.table == "player" }.count == 2)
        #expect(page.rows.filter { $0.row.table == "notebook" }.map(\.row.id) == [notebook])
        #expect(try server.stop() == 0)
    }

    /// Rows of a table that no declaration declares could be neither read
    /// nor checked: the server refuses the database rather than serve it
    /// in part.
    @Test func aDatabaseWithRowsOfAnUndeclaredTableIsRefusedAtStart() async throws {
        let folder = try TemporaryFolder()
        try writeDeclaration(in: folder)
        let server = try ServerProcess(["--database", "server.db", "--seed", "2"], environment: ServerDatabase.environment, folder: folder)
        #expect(try server.stop() == 0)
        let result = try await ServerProcess.run(["--database", "server.db", "--schema", "notes.json", "--port", "0"],
                                                 environment: ServerDatabase.environment, in: folder)
        #expect(result.status == 1)
        #expect(result.error.contains("the database holds rows of the table player, which the declarations given do not declare"), "\(result.error)")
        #expect(try ServerDatabase.playerCount(folder.path("server.db")) == 2)
    }

    /// A declaration that adds a required column would lock out every
    /// device of the one served before: refused at start, naming it; one
    /// that adds a nullable column is served.
    @Test func aDeclarationThatWouldLockOutTheDevicesOfTheOneServedBeforeIsRefusedAtStart() async throws {
        let folder = try TemporaryFolder()
        try writeDeclaration(in: folder)
        let server = try ServerProcess(["--database", "server.db", "--schema", "notes.json"], environment: ServerDatabase.environment,
                                       folder: folder)
        _ = try pushNotebook(server)
        #expect(try server.stop() == 0)
        let requiredDue = try SyncSchema(tables: SyncSchema.testNotes.tables.map { table in
            table.name != "note" ? table : SyncTable(name: "note", primaryKey: table.primaryKey, conflicts: table.conflicts,
                                                       columns: table.columns + [SyncColumn(name: "due", type: .integer, isRequired: true)])
        })
        try writeDeclaration("due.json", requiredDue.json(), in: folder)
        let refused = try await ServerProcess.run(["--database", "server.db", "--schema", "due.json", "--port", "0"],
                                                  environment: ServerDatabase.environment, in: folder)
        #expect(refused.status == 1)
        #expect(refused.error.contains("would lock out the devices of the one this database served before: it adds the required column "
            + "note.due, which the devices that do not know it never send: declare it without \"required\""), "\(refused.error)")
        try writeDeclaration("next.json", SyncSchema.testNotesNextVersion.json(), in: folder)
        let next = try ServerProcess(["--database", "server.db", "--schema", "next.json"], environment: ServerDatabase.environment,
                                     folder: folder)
        #expect(try next.stop() == 0)
    }

    /// An end-to-end table's rows are sealed under users' and groups' keys:
    /// a server of one shared token cannot serve it.
    @Test func anEndToEndTableNeedsSignedIdentities() async throws {
        let folder = try TemporaryFolder()
        try writeDeclaration("sealed.json", SyncSchema.testUsersWithSealedDiaries.json(), in: folder)
        let result = try await ServerProcess.run(["--schema", "sealed.json", "--port", "0"], in: folder)
        #expect(result.status == 1)
        #expect(result.error == "players-server: the end-to-end table diary needs --auth jwt: "
            + "its rows are sealed under the keys of users and groups\n", "\(result.error)")
    }

    @Test(arguments: [["--seed", "2"], ["--demo"]])
    func theDemosWritesNeedPlayersTable(_ demo: [String]) async throws {
        let folder = try TemporaryFolder()
        try writeDeclaration(in: folder)
        let result = try await ServerProcess.run(["--schema", "notes.json", "--port", "0"] + demo, in: folder)
        #expect(result.status == 1)
        #expect(result.error == "players-server: --seed and --demo write players, and the declarations of --schema have no player table: "
            + "give Players' declaration too (players schema > players.json; --schema players.json)\n")
    }

    @Test func aDeclarationThatIsNotValidStopsTheServerNamingTheFile() async throws {
        let folder = try TemporaryFolder()
        try writeDeclaration("notes.json", Data(#"{"format": 1, "tables": [], "extra": true}"#.utf8), in: folder)
        let result = try await ServerProcess.run(["--schema", "notes.json", "--port", "0"], in: folder)
        #expect(result.status == 1)
        #expect(result.error.hasPrefix("players-server: notes.json: "), "\(result.error)")
        #expect(result.error.split(separator: "\n").count == 1)
    }

    @Test func aTableDeclaredByTwoFilesIsRefused() async throws {
        let folder = try TemporaryFolder()
        try writeDeclaration(in: folder)
        try writeDeclaration("again.json", in: folder)
        let result = try await ServerProcess.run(["--schema", "notes.json", "--schema", "again.json", "--port", "0"], in: folder)
        #expect(result.status == 1)
        #expect(result.error == "players-server: again.json declares the table notebook, which notes.json declares too: give each table once\n")
    }

    @Test func aMissingDeclarationIsNamed() async throws {
        let folder = try TemporaryFolder()
        let result = try await ServerProcess.run(["--schema", "missing.json", "--port", "0"], in: folder)
        #expect(result.status == 1)
        #expect(result.error.hasPrefix("players-server: cannot read the declaration missing.json: "), "\(result.error)")
    }
}
