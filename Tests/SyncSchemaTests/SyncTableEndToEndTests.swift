import Foundation
import SyncSchema
import Testing

/// End-to-end tables (format 3): read and written back, refused where
/// the server could not serve them sealed, and their server view.
@Suite struct SyncTableEndToEndTests {
    /// Notes' tables with `endToEnd` on notebooks and notes.
    static func declaration(noteConflicts: String = "server-wins", noteAccess: String = #"{"rule": "group", "column": "notebook"}"#,
                            extraNoteColumn: String = "") -> String {
        """
        {
          "format": 3,
          "tables": [
            { "name": "notebook", "primaryKey": "id", "conflicts": "server-wins", "access": {"rule": "owner"}, "endToEnd": true,
              "columns": [ { "name": "id", "type": "uuid", "required": true },
                           { "name": "name", "type": "text", "maximumLength": 100 } ] },
            { "name": "note", "primaryKey": "id", "conflicts": "\(noteConflicts)", "access": \(noteAccess), "endToEnd": true,
              "columns": [ { "name": "id", "type": "uuid", "required": true },
                           { "name": "notebook", "type": "uuid", "required": true, "references": { "table": "notebook", "onDelete": "cascade" } },
                           { "name": "title", "type": "text", "maximumLength": 100 }\(extraNoteColumn) ] },
            { "name": "member", "primaryKey": "id", "conflicts": "server-wins",
              "access": {"rule": "membership", "group": "notebook", "user": "user"},
              "columns": [ { "name": "id", "type": "uuid", "required": true },
                           { "name": "notebook", "type": "uuid", "required": true, "references": { "table": "notebook", "onDelete": "cascade" } },
                           { "name": "user", "type": "text", "required": true, "maximumLength": 100 } ] }
          ]
        }
        """
    }

    @Test func anEndToEndTableIsReadAndWrittenBackAsFormat3() throws {
        let schema = try SyncSchema(json: Data(Self.declaration().utf8))
        #expect(schema.table("note")?.isEndToEnd == true && schema.table("member")?.isEndToEnd == false)
        #expect(String(decoding: schema.json(), as: UTF8.self).contains("\"format\" : 3"))
        #expect(try SyncSchema(json: schema.json()) == schema)
    }

    @Test func endToEndIsRefusedBeforeFormat3() throws {
        let inFormat2 = Self.declaration().replacingOccurrences(of: "\"format\": 3", with: "\"format\": 2")
        do {
            _ = try SyncSchema(json: Data(inFormat2.utf8))
            Issue.record("format 2 read endToEnd")
        } catch {
            guard case .malformed(let path, _, _) = error else { Issue.record("\(error)"); return }
            #expect(path == "$.tables[0].endToEnd")
        }
    }

    /// The server keeps the primary key and the group column in the clear,
    /// every other column in one sealed value.
    @Test func theServerViewKeepsTheRoutingColumnsAndOneSealedValue() throws {
        let view = try SyncSchema(json: Data(Self.declaration().utf8)).serverView
        #expect(view.table("note")?.columns.map(\.name) == ["id", "notebook", SyncTable.sealedColumn])
        #expect(view.table("notebook")?.columns.map(\.name) == ["id", SyncTable.sealedColumn])
        #expect(view.table("member")?.columns.map(\.name) == ["id", "notebook", "user"])
        #expect(view.table("note")?.access == .group(column: "notebook"))
        #expect(view.tablesInApplyOrder.map(\.name) == ["notebook", "note", "member"])
        let sealed = try #require(view.table("note")?.column(SyncTable.sealedColumn))
        #expect(sealed.type == .text && sealed.isRequired && sealed.maximumLength == SyncTable.maximumSealedLength)
    }

    static let brokenRules: [(declaration: String, error: SyncSchemaError)] = [
        (declaration(noteConflicts: "merge-by-column"),
         .invalidEndToEnd(table: "note", "the server cannot merge the columns it cannot read, so its conflicts must be server-wins")),
        (declaration(noteAccess: "null"),
         .invalidEndToEnd(table: "note", "its rows are sealed under their partition's key, so its access rule must be owner or group")),
        (declaration(noteAccess: #"{"rule": "shared", "writers": ["editor"]}"#),
         .invalidEndToEnd(table: "note", "its rows are sealed under their partition's key, so its access rule must be owner or group")),
        (declaration(extraNoteColumn: #", { "name": "parent", "type": "uuid", "references": { "table": "notebook", "onDelete": "set-null" } }"#),
         .invalidEndToEnd(table: "note", "column parent is a reference, which the server could not keep once sealed: "
            + "only the group column of an end-to-end table may reference another table")),
    ]

    @Test(arguments: brokenRules.indices)
    func anEndToEndTableTheServerCouldNotServeSealedIsRefused(_ index: Int) {
        let (declaration, error) = Self.brokenRules[index]
        #expect(throws: error) { try SyncSchema(json: Data(declaration.utf8)) }
    }
}
