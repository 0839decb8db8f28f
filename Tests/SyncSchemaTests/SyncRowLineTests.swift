import Foundation
import SyncSchema
import Testing

/// A row as one line of JSON Lines (``SyncRowLine``): read back equal,
/// checked by the declaration as a pushed row is.
@Suite struct SyncRowLineTests {
    let schema: SyncSchema

    init() throws {
        schema = try SyncSchema(json: Data(SyncSchemaTests.notesJSON.utf8))
    }

    @Test func aRowIsReadBackEqual() throws {
        let row = try #require(schema.table("note")).row(id: UUID(), values: [
            "notebook": .uuid(UUID()), "title": .text("Zoé \"⚽\" \\ /"), "body": .text("Milk\nEggs\t"),
        ])
        let line = SyncRowLine.text(row)
        #expect(!line.contains("\n"))
        #expect(try SyncRowLine.row(line, schema: schema) == row)
    }

    @Test(arguments: [
        (#"{"id":"5C2F0D9E-8A1B-4C3D-9E4F-0A1B2C3D4E5F","table":"notebook","values":{}}"#, "$.values.name"),
        (#"{"id":"5C2F0D9E-8A1B-4C3D-9E4F-0A1B2C3D4E5F","table":"notebook","values":{"name":"Work"},"version":3}"#, "$.version"),
        (#"{"id":"not-a-uuid","table":"notebook","values":{"name":"Work"}}"#, "$.id"),
        (#"{"table":"notebook","values":{"name":"Work"}}"#, "$.id"),
        (#"{"id":"5C2F0D9E-8A1B-4C3D-9E4F-0A1B2C3D4E5F","table":"tag","values":{}}"#, "$.table"),
    ])
    func aLineThatIsNoWholeRowOfTheDeclarationIsRefusedAtItsPath(_ line: String, _ path: String) {
        let error = #expect(throws: SyncMessageError.self) { try SyncRowLine.row(line, schema: schema) }
        #expect(error?.path == path, "\(String(describing: error))")
    }
}
