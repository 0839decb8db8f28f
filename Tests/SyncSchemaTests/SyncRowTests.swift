import Foundation
import SyncSchema
import Testing

/// Rows of a declared table: each value checked by its column, a column
/// not sent kept apart from a null one, and JSON read back equal.
@Suite struct SyncRowTests {
    /// A value as an app shows it: its JSON.
    @Test func aJSONScalarDescribesItselfAsJSON() {
        let values: [SyncJSONScalar] = [.string("Say \"hi\""), .integer(42), .real(2.5), .boolean(true), .null]
        #expect(values.map(\.description) == [#""Say \"hi\"""#, "42", "2.5", "true", "null"])
    }

    let note: SyncTable
    let notebook: SyncTable
    let notebookID = UUID()

    init() throws {
        let schema = try SyncSchema(json: Data(SyncSchemaTests.notesJSON.utf8))
        note = try #require(schema.table("note"))
        notebook = try #require(schema.table("notebook"))
    }

    @Test func aWholeRowCarriesEveryRequiredColumn() throws {
        #expect(throws: SyncRowError.missingColumn(table: "note", column: "title")) {
            try note.row(id: UUID(), values: ["notebook": .uuid(notebookID)])
        }
        // An optional column may be left out: not sent, not null.
        let row = try note.row(id: UUID(), values: ["notebook": .uuid(notebookID), "title": .text("Groceries")])
        #expect(row.values["body"] == nil)
        #expect(row.values.count == 2)
    }

    @Test func aChangedRowCarriesOnlyTheColumnsTheChangeTouched() throws {
        let row = try note.row(id: UUID(), values: ["body": .text("milk")], carrying: .changed)
        #expect(row.values == ["body": .text("milk")])
        // Null is a value: it is sent.
        let cleared = try note.row(id: UUID(), values: ["body": .null], carrying: .changed)
        #expect(cleared.values == ["body": .null])
    }

    @Test func valuesAreCheckedByTheirColumnsAndKeptAsTheColumnReturnsThem() throws {
        let row = try notebook.row(id: UUID(), values: ["name": .text("  Work  ")])
        #expect(row.values["name"] == .text("Work"))
        let error = #expect(throws: SyncRowError.self) {
            try notebook.row(id: UUID(), values: ["name": .text(String(repeating: "n", count: 101))])
        }
        guard case .invalidValue(let table, let valueError) = error else {
            Issue.record("not an invalid value: \(String(describing: error))")
            return
        }
        #expect(table == "notebook")
        #expect(valueError.problem == .tooLong)
        #expect(error?.description == "the notebook row is not valid: \(valueError)")
    }

    @Test func anUnknownColumnOrThePrimaryKeyAmongTheValuesIsRefused() {
        #expect(throws: SyncRowError.unknownColumn(table: "notebook", column: "colour")) {
            try notebook.row(id: UUID(), values: ["name": .text("Work"), "colour": .text("red")], carrying: .changed)
        }
        #expect(throws: SyncRowError.primaryKeyAmongValues(table: "notebook", column: "id")) {
            try notebook.row(id: UUID(), values: ["id": .uuid(UUID()), "name": .text("Work")])
        }
    }

    /// Whatever order a dictionary gives the values in, the error is the
    /// first bad column's of the declaration: dictionaries of other
    /// capacities iterate the same three bad values in other orders.
    @Test func theErrorIsTheFirstDeclaredColumnsWhateverTheOrderOfTheValues() {
        for capacity in 3...40 {
            var values: [String: SyncValue] = [:]
            values.reserveCapacity(capacity)
            values["body"] = .integer(1)
            values["title"] = .text("")
            values["notebook"] = .text("not a uuid")
            let error = #expect(throws: SyncRowError.self) { try note.row(id: UUID(), values: values) }
            guard case .invalidValue(_, let valueError) = error else {
                Issue.record("capacity \(capacity): \(String(describing: error))")
                continue
            }
            #expect(valueError.column == "notebook", "capacity \(capacity), order \(Array(values.keys))")
        }
    }

    @Test func aRowReadsBackFromItsJSONEqual() throws {
        let table = try SyncSchema(tables: [SyncTable(name: "reading", primaryKey: "id", conflicts: .serverWins, columns: [
            SyncColumn(name: "id", type: .uuid, isRequired: true),
            SyncColumn(name: "sensor", type: .uuid, isRequired: true),
            SyncColumn(name: "label", type: .text, maximumLength: 20),
            SyncColumn(name: "count", type: .integer, minimum: 0),
            SyncColumn(name: "value", type: .real),
            SyncColumn(name: "valid", type: .boolean),
        ])]).tables[0]
        let row = try table.row(id: UUID(), values: [
            "sensor": .uuid(UUID()), "label": .null, "count": .integer(Int64.max), "value": .real(-0.25), "valid": .boolean(false),
        ])
        let data = try JSONEncoder().encode(row.json)
        let read = try table.row(from: JSONDecoder().decode(SyncRowJSON.self, from: data))
        #expect(read == row)
        // A real written without a fraction is still the column's number.
        let whole = try table.row(from: SyncRowJSON(id: row.id.uuidString, values: ["sensor": .string(UUID().uuidString), "value": .integer(3)]))
        #expect(whole.values["value"] == .real(3))
    }

    @Test func jsonOfAnotherTypeThanItsColumnIsRefusedWithTheColumnsSentence() throws {
        let cases: [(String, SyncJSONScalar, SyncValueError.Problem)] = [
            ("title", .integer(5), .wrongType),
            ("title", .boolean(true), .wrongType),
            ("notebook", .string("not a uuid"), .wrongType),
            ("notebook", .integer(1), .wrongType),
            ("title", .null, .missing),
        ]
        for (column, scalar, problem) in cases {
            var values: [String: SyncJSONScalar] = ["notebook": .string(notebookID.uuidString), "title": .string("Groceries")]
            values[column] = scalar
            let error = #expect(throws: SyncRowError.self) {
                try note.row(from: SyncRowJSON(id: UUID().uuidString, values: values))
            }
            guard case .invalidValue(_, let valueError) = error else {
                Issue.record("\(column) \(scalar): \(String(describing: error))")
                continue
            }
            #expect(valueError.column == column && valueError.problem == problem, "\(column) \(scalar)")
        }
        #expect(throws: SyncRowError.invalidID(table: "note", "12")) {
            try note.row(from: SyncRowJSON(id: "12", values: [:]))
        }
    }

    @Test func jsonScalarsAreToldApartByTheirJSONType() throws {
        let decoded = try JSONDecoder().decode([SyncJSONScalar].self, from: Data(#"[null, true, 0, 1, -7, 2.5, "1", "true"]"#.utf8))
        #expect(decoded == [.null, .boolean(true), .integer(0), .integer(1), .integer(-7), .real(2.5), .string("1"), .string("true")])
    }
}
