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

    /// SyncEngine.md's declaration in Swift, as the page writes it.
    @Test func aDeclarationWrittenInSwiftReadsBackEqualFromItsJSON() throws {
        let schema = try SyncSchema(tables: [
            SyncTable(name: "project", primaryKey: "id", conflicts: .serverWins, columns: [
                SyncColumn(name: "id", type: .uuid, isRequired: true),
                SyncColumn(name: "name", type: .text, isRequired: true, isTrimmed: true, maximumLength: 100),
            ]),
            SyncTable(name: "task", primaryKey: "id", conflicts: .mergeByColumn, columns: [
                SyncColumn(name: "id", type: .uuid, isRequired: true),
                SyncColumn(name: "project", type: .uuid, isRequired: true, references: SyncReference(table: "project", onDelete: .cascade)),
                SyncColumn(name: "done", type: .boolean),
            ]),
        ])
        #expect(try SyncSchema(json: schema.json()) == schema)
        #expect(schema.tablesInApplyOrder.map(\.name) == ["project", "task"])
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
        (("\"format\": 1", "\"format\": 4"), .unsupportedFormat(4)),
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

    /// An element of the Notes declaration that is not a declaration's,
    /// made by one edit, and the error that names it: its path, the line
    /// and column where it begins (a member at its key, an element of an
    /// array at its first character), and what is wrong.
    static let malformedElements: [(edit: (String, String), error: SyncSchemaError)] = [
        (("\"maximumLength\": 200", "\"maximumLenght\": 200"),
         .malformed(path: "$.tables[0].columns[2].maximumLenght", at: StrictJSON.Location(line: 8, column: 62), reason:
            "unknown key (known: allowsControlCharacters, maximum, maximumBytes, maximumLength, minimum, name, references, required, trimmed, type)")),
        (("\"maximumLength\": 200", "\"maximumLength\": 200, \"maximumLength\": 20"),
         .malformed(path: "$.tables[0].columns[2].maximumLength", at: StrictJSON.Location(line: 8, column: 84), reason: "appears twice")),
        (("\"maximumLength\": 200", "\"maximumLength\": 2e2"),
         .malformed(path: "$.tables[0].columns[2].maximumLength", at: StrictJSON.Location(line: 8, column: 62),
                    reason: "not an integer written as one (digits only, no fraction, exponent or -0)")),
        (("\"maximumLength\": 200", "\"maximumLength\": \"200\""),
         .malformed(path: "$.tables[0].columns[2].maximumLength", at: StrictJSON.Location(line: 8, column: 62), reason: "expected an integer")),
        (("\"primaryKey\": \"id\", \"conflicts\": \"server-wins\",", "\"conflicts\": \"server-wins\","),
         .malformed(path: "$.tables[1].primaryKey", at: StrictJSON.Location(line: 10, column: 5), reason: "missing")),
        (("\"type\": \"text\", \"required\": true, \"maximumLength\": 200", "\"type\": \"string\", \"required\": true, \"maximumLength\": 200"),
         .malformed(path: "$.tables[0].columns[2].type", at: StrictJSON.Location(line: 8, column: 28),
                    reason: #""string" is not a column type: give one of uuid, text, integer, real, boolean"#)),
        (("\"conflicts\": \"server-wins\"", "\"conflicts\": \"client-wins\""),
         .malformed(path: "$.tables[1].conflicts", at: StrictJSON.Location(line: 10, column: 47),
                    reason: #""client-wins" is not a conflict policy: give one of server-wins, merge-by-column"#)),
        (("\"onDelete\": \"cascade\"", "\"onDelete\": \"nothing\""),
         .malformed(path: "$.tables[0].columns[1].references.onDelete", at: StrictJSON.Location(line: 7, column: 102),
                    reason: #""nothing" is not a delete action: give one of cascade, restrict, set-null"#)),
        (("\"required\": true, \"trimmed\": true", "\"required\": null, \"trimmed\": \"yes\""),
         .malformed(path: "$.tables[1].columns[1].trimmed", at: StrictJSON.Location(line: 13, column: 61), reason: "expected a boolean")),
        (("\"name\": \"notebook\", \"primaryKey\"", "\"name\": null, \"primaryKey\""),
         .malformed(path: "$.tables[1].name", at: StrictJSON.Location(line: 10, column: 7), reason: "expected a string, found null")),
        (("\"tables\": [", "\"tables\": {"),
         .malformed(path: "$.tables", at: StrictJSON.Location(line: 3, column: 3), reason: "expected an array")),
        (("} ] }\n  ]\n}", "} ] },\n  ]\n}"),
         .malformed(path: "$", at: StrictJSON.Location(line: 14, column: 3), reason: "not valid JSON")),
        (("\n  ]\n}", "\n  ]\n} }"),
         .malformed(path: "$", at: StrictJSON.Location(line: 15, column: 3), reason: "not valid JSON")),
    ]

    @Test(arguments: malformedElements.indices)
    func anElementThatIsNotADeclarationsIsRefusedByItsPathLineAndColumn(_ index: Int) throws {
        let (edit, expected) = Self.malformedElements[index]
        let json = Self.notesJSON.replacingOccurrences(of: edit.0, with: edit.1)
        try #require(json != Self.notesJSON)
        let error = #expect(throws: SyncSchemaError.self) { try SyncSchema(json: Data(json.utf8)) }
        #expect(error == expected, "\(error?.description ?? "no error")")
    }

    @Test func theSentenceOfAnElementNamesItsPlaceAndWhatToGive() {
        let json = Self.notesJSON.replacingOccurrences(of: "\"type\": \"text\", \"required\": true, \"maximumLength\": 200",
                                                       with: "\"type\": \"string\", \"required\": true, \"maximumLength\": 200")
        let error = #expect(throws: SyncSchemaError.self) { try SyncSchema(json: Data(json.utf8)) }
        #expect(error?.description == #"the declaration is not valid at $.tables[0].columns[2].type (line 8, column 28): "#
            + #""string" is not a column type: give one of uuid, text, integer, real, boolean."#)
    }

    @Test func aFormatThisProgramDoesNotReadIsRefusedBeforeAnyOtherMember() {
        // The rest may be anything in another format: it is not read.
        let json = #"{"tables": {"what": "a later format has"}, "format": 4, "extra": true}"#
        #expect(throws: SyncSchemaError.unsupportedFormat(4)) { try SyncSchema(json: Data(json.utf8)) }
        #expect(throws: SyncSchemaError.malformed(path: "$.format", at: StrictJSON.Location(line: 1, column: 1), reason: "missing")) {
            try SyncSchema(json: Data(#"{"tables": []}"#.utf8))
        }
    }

    /// Format 2's `access`: read, written back (as format 2; a
    /// declaration without one is written as format 1, which every reader
    /// takes), and refused in format 1 and without its writers.
    @Test func aSharedTablesAccessIsReadFromFormat2AndWrittenBack() throws {
        let shared = Self.notesJSON.replacingOccurrences(of: "\"format\": 1", with: "\"format\": 2")
            .replacingOccurrences(of: "\"conflicts\": \"server-wins\",", with: #""conflicts": "server-wins", "access": {"rule": "shared", "writers": ["editor"]},"#)
        let schema = try SyncSchema(json: Data(shared.utf8))
        #expect(schema.table("notebook")?.access == .shared(writers: ["editor"]))
        #expect(schema.table("note")?.access == nil)
        #expect(try SyncSchema(json: schema.json()) == schema)
        #expect(String(decoding: schema.json(), as: UTF8.self).contains("\"format\" : 2"))
        #expect(String(decoding: try SyncSchema(json: Data(Self.notesJSON.utf8)).json(), as: UTF8.self).contains("\"format\" : 1"))

        let inFormat1 = shared.replacingOccurrences(of: "\"format\": 2", with: "\"format\": 1")
        let error = #expect(throws: SyncSchemaError.self) { try SyncSchema(json: Data(inFormat1.utf8)) }
        #expect(error?.description.contains("$.tables[1].access") == true, "\(error?.description ?? "")")
        let withoutWriters = shared.replacingOccurrences(of: #""writers": ["editor"]"#, with: #""writers": []"#)
        #expect(throws: SyncSchemaError.invalidWriters(table: "notebook")) { try SyncSchema(json: Data(withoutWriters.utf8)) }
        let unknownRule = shared.replacingOccurrences(of: #""rule": "shared""#, with: #""rule": "public""#)
        let ruleError = #expect(throws: SyncSchemaError.self) { try SyncSchema(json: Data(unknownRule.utf8)) }
        #expect(ruleError?.description.contains(#""public" is not an access rule: give one of shared"#) == true)
    }

    @Test func aRuleThatMayBeLeftOutMayBeNull() throws {
        let json = Self.notesJSON.replacingOccurrences(of: "\"maximumBytes\": 300", with: "\"maximumBytes\": null, \"references\": null")
        let schema = try SyncSchema(json: Data(json.utf8))
        #expect(schema.table("notebook")?.column("name")?.maximumBytes == 400)
        #expect(schema.table("notebook")?.column("name")?.references == nil)
    }

    @Test func theDeclarationInDocsSyncEngineIsValid() throws {
        let page = try String(contentsOf: BuiltProducts.packageRoot.appendingPathComponent("Docs/SyncEngine.md"), encoding: .utf8)
        let blocks = page.components(separatedBy: "```json\n").dropFirst().map { $0.components(separatedBy: "\n```")[0] }
        // The declaration, then a digest of its notes.
        try #require(blocks.count == 2)
        let schema = try SyncSchema(json: Data(blocks[0].utf8))
        #expect(schema.tablesInApplyOrder.map(\.name) == ["notebook", "note", "notebook_member"])
        #expect(schema.table("note")?.column("notebook")?.references == SyncReference(table: "notebook", onDelete: .cascade))
        let digest = try JSONDecoder().decode(SyncTableDigest.self, from: Data(blocks[1].utf8))
        #expect(digest.covers(schema.table("note")!))
    }

    @Test func textThatIsNotJSONIsRefused() {
        #expect(throws: SyncSchemaError.malformed(path: "$", at: StrictJSON.Location(line: 1, column: 1), reason: "not valid JSON")) {
            try SyncSchema(json: Data("tables:".utf8))
        }
        #expect(throws: SyncSchemaError.malformed(path: "$", at: StrictJSON.Location(line: 2, column: 36), reason: "not valid UTF-8")) {
            try SyncSchema(json: Data(Data("{\n  \"format\": 1, \"tables\": [{\"name\": \"\u{FF}\"}]}".utf8).map { $0 == 0xC3 ? 0xFF : $0 }))
        }
    }
}
