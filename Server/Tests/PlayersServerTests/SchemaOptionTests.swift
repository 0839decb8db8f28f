import Foundation
import ServerTestSupport
import SyncSchema
import TestSupport
import Testing

/// `players-server --schema FILE`: the declared tables synced beside the
/// players, in the same encrypted file; a declaration it cannot serve
/// stops it at start, naming the file.
@Suite struct SchemaOptionTests {
    static let json = ["Content-Type": "application/json"]

    /// The notes' declaration, written in `folder`.
    func writeDeclaration(_ name: String = "notes.json", _ data: Data = SyncSchema.testNotes.json(), in folder: TemporaryFolder) throws {
        try data.write(to: folder.url(name))
    }

    @Test func aDeclaredTableIsSyncedBesideThePlayersInTheSameFile() async throws {
        let folder = try TemporaryFolder()
        try writeDeclaration(in: folder)
        let arguments = ["--database", "server.db", "--schema", "notes.json", "--seed", "2"]
        var server = try ServerProcess(arguments, environment: ServerDatabase.environment, folder: folder)
        let notebook = UUID()
        let change = SyncChange(mutationID: UUID(), operation: .upsert,
                                row: try SyncSchema.testNotes.table("notebook")!.row(id: notebook, values: ["name": .text("Work")]),
                                baseVersion: nil)
        let pushed = try server.request("POST", "/v1/sync/changes", headers: Self.json,
                                        body: String(decoding: try SyncChangeBatch(changes: [change]).jsonData(), as: UTF8.self))
        #expect(pushed.status == 200, "\(pushed.body)")
        #expect(try server.stop() == 0)

        // The same file, opened again: the row and the players are there.
        server = try ServerProcess(arguments, environment: ServerDatabase.environment, folder: folder)
        let page = try SyncPage.decode(Data(try server.request("GET", "/v1/sync/rows").body.utf8), schema: .testNotes)
        #expect(page.rows.map(\.row.id) == [notebook])
        #expect(try server.request("GET", "/v1/players").status == 200)
        #expect(try server.stop() == 0)
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
