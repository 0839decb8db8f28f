import Foundation
import SyncSchema
import Testing
import TestSupport

/// Declarations: read from their JSON file, checked, and ordered so that
/// a merge keeps every foreign key valid.
@Suite struct SyncSchemaTests {
    /// Notes' tables, children declared before parents.
    static let notesJSON = """
        {
          "format": 1,
          "tables": [
            { "name": "note", "primaryKey": "id", "conflicts": "merge-by-column",
              "columns": [
                { "name": "id", "type": "uuid", "required": true },
                { "name": "notebook", "type": "uuid", "required": true, "references": { "table": "notebook", "onDelete": "cascade" } },
                { "name": "title", "type": "text", "required": true, "maximumLength": 200 },
                { "name": "body", "type": "text", "maximumLength": 100000, "allowsControlCharacters": true } ] },
            { "name": "notebook", "primaryKey": "id", "conflicts": "server-wins",
              "columns": [
                { "name": "id", "type": "uuid", "required": true },
                { "name": "name", "type": "text", "required": true, "trimmed": true, "maximumLength": 100, "maximumBytes": 300 } ] }
          ]
        }
        """

    @Test func aDeclarationIsReadWithEveryRule() throws {
        let schema = try SyncSchema(json: Data(Self.notesJSON.utf8))
        #expect(schema.tables.map(\.name) == ["note", "notebook"])
        let note = try #require(schema.table("note"))
        #expect(note.conflicts == .mergeByColumn)
        #expect(note.column("notebook")?.references == SyncReference(table: "notebook", onDelete: .cascade))
        #expect(note.column("body")?.allowsControlCharacters == true)
        #expect(note.column("body")?.maximumBytes == 400_000)
        let name = try #require(schema.table("notebook")?.column("name"))
        #expect(name.isRequired && name.isTrimmed && name.maximumLength == 100 && name.maximumBytes == 300)
    }

    @Test func parentsComeFirstInTheApplyOrder() throws {
        let schema = try SyncSchema(json: Data(Self.notesJSON.utf8))
        #expect(schema.tablesInApplyOrder.map(\.name) == ["notebook", "note"])
    }

    @Test func aDeclarationReadsBackEqualFromTheFileItWrites() throws {
        let schema = try SyncSchema(json: Data(Self.notesJSON.utf8))
        #expect(try SyncSchema(json: schema.json()) == schema)
    }

    @Test func aTableThatReferencesItselfIsATreeNotACycle() throws {
        let folder = SyncTable(name: "folder", primaryKey: "id", conflicts: .serverWins, columns: [
            SyncColumn(name: "id", type: .uuid, isRequired: true),
            SyncColumn(name: "parent", type: .uuid, references: SyncReference(table: "folder", onDelete: .cascade)),
        ])
        #expect(try SyncSchema(tables: [folder]).tablesInApplyOrder == [folder])
    }

    @Test func tablesThatReferenceEachOtherAreRefused() {
        func table(_ name: String, _ parent: String) -> SyncTable {
            SyncTable(name: name, primaryKey: "id", conflicts: .serverWins, columns: [
                SyncColumn(name: "id", type: .uuid, isRequired: true),
                SyncColumn(name: "parent", type: .uuid, references: SyncReference(table: parent, onDelete: .restrict)),
            ])
        }
        let error = #expect(throws: SyncSchemaError.self) { try SyncSchema(tables: [table("a", "b"), table("b", "c"), table("c", "a")]) }
        #expect(error == .referenceCycle(["a", "b", "c", "a"]))
        #expect(error?.description.contains("a → b → c → a") == true)
    }

    /// Each rule of a declaration, broken in the Notes declaration by one
    /// edit, and the error it gives.
    static let brokenRules: [(edit: (String, String), error: SyncSchemaError)] = [
        (("\"format\": 1", "\"format\": 2"), .unsupportedFormat(2)),
        (("\"name\": \"note\"", "\"name\": \"Note\""), .invalidName("Note", table: nil)),
        (("\"name\": \"note\"", "\"name\": \"sync_note\""), .reservedName("sync_note", table: nil)),
        (("\"name\": \"note\"", "\"name\": \"notebook\""), .duplicateTable("notebook")),
        (("\"name\": \"title\"", "\"name\": \"id\""), .duplicateColumn(table: "note", column: "id")),
        (("\"primaryKey\": \"id\", \"conflicts\": \"merge", "\"primaryKey\": \"key\", \"conflicts\": \"merge"),
         .missingPrimaryKey(table: "note", column: "key")),
        (("\"primaryKey\": \"id\", \"conflicts\": \"merge", "\"primaryKey\": \"title\", \"conflicts\": \"merge"),
         .primaryKeyNotARequiredUUID(table: "note", column: "title")),
        (("\"maximumLength\": 200", "\"minimum\": 200"), .ruleNotForType(table: "note", column: "title", rule: "minimum", type: .text)),
        ((", \"maximumLength\": 200", ""), .missingMaximumLength(table: "note", column: "title")),
        (("\"maximumBytes\": 300", "\"maximumBytes\": 30"),
         .invalidBound(table: "notebook", column: "name", "maximumLength must be at least 1, and maximumBytes at least maximumLength")),
        (("\"onDelete\": \"cascade\"", "\"onDelete\": \"set-null\""), .setNullOnRequiredColumn(table: "note", column: "notebook")),
        (("\"table\": \"notebook\"", "\"table\": \"notebooks\""),
         .unknownReferencedTable(table: "note", column: "notebook", referenced: "notebooks")),
    ]

    @Test(arguments: brokenRules.indices)
    func aBrokenRuleIsRefusedWithItsSentence(_ index: Int) throws {
        let (edit, expected) = Self.brokenRules[index]
        let json = Self.notesJSON.replacingOccurrences(of: edit.0, with: edit.1)
        try #require(json != Self.notesJSON)
        let error = #expect(throws: SyncSchemaError.self) { try SyncSchema(json: Data(json.utf8)) }
        #expect(error == expected, "\(error?.description ?? "no error")")
    }

    @Test func aDeclarationWithoutATableIsRefused() {
        #expect(throws: SyncSchemaError.noTables) { try SyncSchema(tables: []) }
        #expect(throws: SyncSchemaError.noTables) { try SyncSchema(json: Data(#"{"format": 1, "tables": []}"#.utf8)) }
    }

    @Test func anUnknownKeyIsRefusedByItsPath() {
        let json = Self.notesJSON.replacingOccurrences(of: "\"maximumLength\": 200", with: "\"maximumLenght\": 200")
        let error = #expect(throws: SyncSchemaError.self) { try SyncSchema(json: Data(json.utf8)) }
        guard case .malformed(let path, let reason)? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(path == "$.tables[0].columns[2].maximumLenght")
        #expect(reason.hasPrefix("unknown key"))
    }

    @Test func aKeyTwiceAndANumberThatIsNotAnIntegerAreRefusedByTheirPath() {
        let twice = Self.notesJSON.replacingOccurrences(of: "\"maximumLength\": 200", with: "\"maximumLength\": 200, \"maximumLength\": 20")
        #expect(throws: SyncSchemaError.malformed(path: "$.tables[0].columns[2].maximumLength", reason: "appears twice")) {
            try SyncSchema(json: Data(twice.utf8))
        }
        let fraction = Self.notesJSON.replacingOccurrences(of: "\"maximumLength\": 200", with: "\"maximumLength\": 2e2")
        let error = #expect(throws: SyncSchemaError.self) { try SyncSchema(json: Data(fraction.utf8)) }
        guard case .malformed(let path, _)? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(path == "$.tables[0].columns[2].maximumLength")
    }

    @Test func aMissingKeyAndAnUnknownTypeAreRefusedByTheirPath() {
        let missing = Self.notesJSON.replacingOccurrences(of: "\"primaryKey\": \"id\", \"conflicts\": \"server-wins\",", with: "\"conflicts\": \"server-wins\",")
        #expect(throws: SyncSchemaError.malformed(path: "$.tables[1].primaryKey", reason: "missing")) { try SyncSchema(json: Data(missing.utf8)) }
        let type = Self.notesJSON.replacingOccurrences(of: "\"type\": \"text\", \"required\": true, \"maximumLength\": 200", with: "\"type\": \"string\", \"required\": true, \"maximumLength\": 200")
        let error = #expect(throws: SyncSchemaError.self) { try SyncSchema(json: Data(type.utf8)) }
        guard case .malformed(let path, _)? = error else { Issue.record("\(String(describing: error))"); return }
        #expect(path == "$.tables[0].columns[2].type")
    }

    @Test func theDeclarationInDocsSyncEngineIsValid() throws {
        let page = try String(contentsOf: BuiltProducts.packageRoot.appendingPathComponent("Docs/SyncEngine.md"), encoding: .utf8)
        let blocks = page.components(separatedBy: "```json\n").dropFirst().map { $0.components(separatedBy: "\n```")[0] }
        // The declaration, then a digest of its notes.
        try #require(blocks.count == 2)
        let schema = try SyncSchema(json: Data(blocks[0].utf8))
        #expect(schema.tablesInApplyOrder.map(\.name) == ["notebook", "note"])
        #expect(schema.table("note")?.column("notebook")?.references == SyncReference(table: "notebook", onDelete: .cascade))
        let digest = try JSONDecoder().decode(SyncTableDigest.self, from: Data(blocks[1].utf8))
        #expect(digest.covers(schema.table("note")!))
    }

    @Test func textThatIsNotJSONIsRefused() {
        #expect(throws: SyncSchemaError.malformed(path: "$", reason: "not valid JSON")) { try SyncSchema(json: Data("tables:".utf8)) }
    }
}
