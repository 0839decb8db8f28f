import Foundation
import SyncSchema
import Testing

/// The engine's messages (a push, its answer, a page of a pull): read
/// back equal, checked by the receiver's declaration, every refusal at
/// the JSON path of its first bad element.
@Suite struct SyncMessagesTests {
    let schema: SyncSchema
    /// The same tables, with a later column: `note.color`, and a table of
    /// tags (a server of a later app version).
    let laterSchema: SyncSchema
    let notebookID = UUID(), noteID = UUID()

    init() throws {
        schema = try SyncSchema(json: Data(SyncSchemaTests.notesJSON.utf8))
        let later = try #require(try JSONSerialization.jsonObject(with: Data(SyncSchemaTests.notesJSON.utf8)) as? [String: Any])
        var tables = try #require(later["tables"] as? [[String: Any]])
        let note = try #require(tables.firstIndex { $0["name"] as? String == "note" })
        var noteColumns = try #require(tables[note]["columns"] as? [[String: Any]])
        noteColumns.append(["name": "color", "type": "integer"])
        tables[note]["columns"] = noteColumns
        tables.append(["name": "tag", "primaryKey": "id", "conflicts": "server-wins",
                       "columns": [["name": "id", "type": "uuid", "required": true]]])
        laterSchema = try SyncSchema(json: JSONSerialization.data(withJSONObject: ["format": 1, "tables": tables]))
    }

    func table(_ name: String, in schema: SyncSchema? = nil) -> SyncTable { (schema ?? self.schema).table(name)! }

    func batch() throws -> SyncChangeBatch {
        SyncChangeBatch(changes: [
            SyncChange(mutationID: UUID(), operation: .upsert,
                       row: try table("notebook").row(id: notebookID, values: ["name": .text("Work")]), baseVersion: nil),
            SyncChange(mutationID: UUID(), operation: .upsert,
                       row: try table("note").row(id: noteID, values: ["body": .null], carrying: .changed), baseVersion: 41),
            SyncChange(mutationID: UUID(), operation: .delete,
                       row: try table("note").row(id: UUID(), values: [:], carrying: .changed), baseVersion: 7),
        ], server: UUID())
    }

    /// `json` with its first `of` replaced by `with`.
    func edited(_ data: Data, _ of: String, _ with: String) -> Data {
        let text = String(decoding: data, as: UTF8.self)
        return Data(text.replacingOccurrences(of: of, with: with, options: [], range: text.range(of: of)).utf8)
    }

    @Test func aBatchIsReadBackEqual() throws {
        let batch = try batch()
        #expect(try SyncChangeBatch.decode(batch.jsonData(), schema: schema) == batch)
    }

    @Test func aBatchOfATableTheReceiverLacksIsRefusedAtItsPath() throws {
        let change = SyncChange(mutationID: UUID(), operation: .upsert,
                                row: try table("tag", in: laterSchema).row(id: UUID(), values: [:]), baseVersion: nil)
        let data = SyncChangeBatch(changes: [change]).jsonData()
        #expect(throws: SyncMessageError(path: "$.changes[0].table", "tag is not a table this server syncs: update its declaration first")) {
            try SyncChangeBatch.decode(data, schema: schema)
        }
    }

    @Test func aColumnTheReceiverLacksIsRefusedInAPush() throws {
        let row = try table("note", in: laterSchema).row(id: noteID, values: ["color": .integer(3)], carrying: .changed)
        let data = SyncChangeBatch(changes: [SyncChange(mutationID: UUID(), operation: .upsert, row: row, baseVersion: 2)]).jsonData()
        #expect(throws: SyncMessageError(path: "$.changes[0].values.color", "not a column of note in this program's declaration")) {
            try SyncChangeBatch.decode(data, schema: schema)
        }
    }

    @Test func aServerWinsUpsertMustBeAWholeRow() throws {
        let data = edited(try batch().jsonData(), #""name":"Work""#, #""nom":"Work""#)
        #expect(throws: SyncMessageError(path: "$.changes[0].values.nom", "not a column of notebook in this program's declaration")) {
            try SyncChangeBatch.decode(data, schema: schema)
        }
        let empty = edited(try batch().jsonData(), #"{"name":"Work"}"#, "{}")
        #expect(throws: SyncMessageError(path: "$.changes[0].values.name", "missing")) {
            try SyncChangeBatch.decode(empty, schema: schema)
        }
    }

    @Test func aValueIsCheckedByItsColumn() throws {
        let long = String(repeating: "x", count: 101)
        let data = edited(try batch().jsonData(), #""name":"Work""#, #""name":"\#(long)""#)
        #expect(throws: SyncMessageError.self) { try SyncChangeBatch.decode(data, schema: schema) }
        do {
            _ = try SyncChangeBatch.decode(data, schema: schema)
        } catch {
            #expect(error.path == "$.changes[0].values.name")
            #expect(error.message.contains("100 characters"))
        }
    }

    @Test func aDeleteCarriesNoValuesAndARowComesOncePerBatch() throws {
        let data = try batch().jsonData()
        let deleteWithValues = edited(data, #""operation":"delete""#, #""operation":"delete","values":{}"#)
        #expect(throws: SyncMessageError(path: "$.changes[2].values", "not allowed in a delete")) {
            try SyncChangeBatch.decode(deleteWithValues, schema: schema)
        }
        var twice = try batch()
        twice.changes[2] = SyncChange(mutationID: UUID(), operation: .delete,
                                      row: try table("note").row(id: noteID, values: [:], carrying: .changed), baseVersion: 7)
        #expect(throws: SyncMessageError(path: "$.changes[2].id", "\(noteID.uuidString) of note appears twice: send one change per row in a batch")) {
            try SyncChangeBatch.decode(twice.jsonData(), schema: schema)
        }
    }

    @Test func onlyTheValuesOfARowMayHaveAFraction() throws {
        let data = try batch().jsonData()
        #expect(throws: SyncMessageError(path: "$.changes[1].baseVersion", "not an integer written as one (digits only, no fraction, exponent or -0)")) {
            try SyncChangeBatch.decode(edited(data, #""baseVersion":41"#, #""baseVersion":41.0"#), schema: schema)
        }
        // A fraction in a text column's place is its column's refusal, not
        // the protocol's.
        do {
            _ = try SyncChangeBatch.decode(edited(data, #""body":null"#, #""body":1.5"#), schema: schema)
            Issue.record("a number in a text column was accepted")
        } catch {
            #expect(error.path == "$.changes[1].values.body")
        }
    }

    /// A later declaration's push, read by it: `note.color` is an integer.
    func colorChange(_ color: String) throws -> Data {
        let row = try table("note", in: laterSchema).row(id: noteID, values: ["color": .integer(7)], carrying: .changed)
        let data = SyncChangeBatch(changes: [SyncChange(mutationID: UUID(), operation: .upsert, row: row, baseVersion: 2)]).jsonData()
        return edited(data, #""color":7"#, #""color":\#(color)"#)
    }

    @Test(arguments: ["1e2", "100.0", "1E2", "-0", "1.0000000000000001", "1e-400", "0.0"])
    func anIntegerColumnRefusesANumberNotWrittenAsAnInteger(_ written: String) throws {
        let data = try colorChange(written)
        do {
            let batch = try SyncChangeBatch.decode(data, schema: laterSchema)
            Issue.record("\(written) was read as \(String(describing: batch.changes.first?.row.values["color"]))")
        } catch {
            #expect(error.path == "$.changes[0].values.color", "\(written)")
        }
        #expect(try SyncChangeBatch.decode(try colorChange("100"), schema: laterSchema).changes[0].row.values["color"] == .integer(100))
    }

    @Test func aRealColumnTakesAnIntegerAndAnyNumber() throws {
        let schema = try SyncSchema(json: Data(#"{"format":1,"tables":[{"name":"reading","primaryKey":"id","conflicts":"server-wins","columns":[{"name":"id","type":"uuid","required":true},{"name":"value","type":"real"}]}]}"#.utf8))
        for (written, value) in [("3", 3.0), ("1e2", 100.0), ("-0", -0.0), ("2.5", 2.5)] {
            let row = try #require(schema.table("reading")).row(id: UUID(), values: ["value": .real(1.5)])
            let data = edited(SyncChangeBatch(changes: [SyncChange(mutationID: UUID(), operation: .upsert, row: row, baseVersion: nil)]).jsonData(),
                              #""value":1.5"#, #""value":\#(written)"#)
            #expect(try SyncChangeBatch.decode(data, schema: schema).changes[0].row.values["value"] == .real(value), "\(written)")
        }
    }

    @Test func anAppliedUpsertWithoutAVersionIsRefusedAndAnAppliedDeleteMayHaveNone() throws {
        let batch = try batch()
        let answer = SyncChangeResults(results: batch.changes.map { SyncPushResult(mutationID: $0.mutationID, status: .applied, version: nil) })
        #expect(throws: SyncMessageError(path: "$.results[0].version",
                                         "missing for an applied upsert, whose row takes the version the server gave it")) {
            try SyncChangeResults.decode(answer.jsonData(), answering: batch.changes, schema: schema)
        }
        let deleteOnly = Array(batch.changes.suffix(1))
        #expect(try SyncChangeResults.decode(SyncChangeResults(results: Array(answer.results.suffix(1))).jsonData(),
                                             answering: deleteOnly, schema: schema).results[0].version == nil)
    }

    @Test func anAnswerWithTheMutationIDsOfOtherChangesIsRefused() throws {
        let batch = try batch()
        let swapped = SyncChangeResults(results: [batch.changes[1], batch.changes[0], batch.changes[2]].map {
            SyncPushResult(mutationID: $0.mutationID, status: .applied, version: 9)
        })
        #expect(throws: SyncMessageError(path: "$.results[0].mutationID", "not the mutation id of change 0")) {
            try SyncChangeResults.decode(swapped.jsonData(), answering: batch.changes, schema: schema)
        }
    }

    @Test func answersAreReadBackEqual() throws {
        let batch = try batch()
        let results = SyncChangeResults(results: [
            SyncPushResult(mutationID: batch.changes[0].mutationID, status: .applied, version: 42),
            SyncPushResult(mutationID: batch.changes[1].mutationID, status: .conflict, version: 43,
                           serverRow: try table("note").row(id: noteID, values: ["notebook": .uuid(notebookID), "title": .text("Theirs")])),
            SyncPushResult(mutationID: batch.changes[2].mutationID, status: .applied, version: nil),
        ])
        #expect(try SyncChangeResults.decode(results.jsonData(), answering: batch.changes, schema: schema) == results)
        #expect(throws: SyncMessageError(path: "$.results", "2 results for 3 changes")) {
            try SyncChangeResults.decode(SyncChangeResults(results: Array(results.results.prefix(2))).jsonData(),
                                         answering: batch.changes, schema: schema)
        }
    }

    /// A refused change's answer: its reason and the server's row, read
    /// back equal; a reason on any other result, or a refusal without
    /// one, is refused.
    @Test func aRefusedChangeIsReadBackWithItsReasonAndOnlyItHasOne() throws {
        let batch = try batch()
        let refused = SyncChangeResults(results: [
            SyncPushResult(mutationID: batch.changes[0].mutationID, status: .refused, version: 7,
                           serverRow: try table("notebook").row(id: notebookID, values: ["name": .text("Theirs")]),
                           refusal: "writing the table notebook needs the role editor"),
            SyncPushResult(mutationID: batch.changes[1].mutationID, status: .refused, version: nil, refusal: "not yours"),
            SyncPushResult(mutationID: batch.changes[2].mutationID, status: .applied, version: nil),
        ])
        #expect(try SyncChangeResults.decode(refused.jsonData(), answering: batch.changes, schema: schema) == refused)
        var withoutReason = refused
        withoutReason.results[1].refusal = nil
        #expect(throws: SyncMessageError(path: "$.results[1].reason", "missing for a refused change")) {
            try SyncChangeResults.decode(withoutReason.jsonData(), answering: batch.changes, schema: schema)
        }
        var reasonElsewhere = refused
        reasonElsewhere.results[2].refusal = "why"
        #expect(throws: SyncMessageError(path: "$.results[2].reason", "only a refused change has one")) {
            try SyncChangeResults.decode(reasonElsewhere.jsonData(), answering: batch.changes, schema: schema)
        }
    }

    @Test func aConflictsRowOfALaterDeclarationLeavesOutTheColumnsThisOneLacks() throws {
        let batch = try batch()
        let later = try table("note", in: laterSchema).row(
            id: noteID, values: ["notebook": .uuid(notebookID), "title": .text("Theirs"), "color": .integer(3)])
        let results = SyncChangeResults(results: batch.changes.map {
            SyncPushResult(mutationID: $0.mutationID, status: .conflict, version: 43, serverRow: $0.row.id == noteID ? later : nil)
        })
        let read = try SyncChangeResults.decode(results.jsonData(), answering: batch.changes, schema: schema)
        #expect(read.results[1].serverRow?.values == ["notebook": .uuid(notebookID), "title": .text("Theirs")])
    }

    @Test func aPageIsReadBackEqual() throws {
        let page = SyncPage(kind: .delta, isComplete: false, cursor: "c1", next: "/v1/sync/rows?since=c1", rows: [
            SyncServerRow(row: try table("note").row(id: noteID, values: ["notebook": .uuid(notebookID), "title": .text("Groceries"), "body": .null]),
                          version: 42),
        ], tombstones: [SyncTombstone(table: "notebook", id: UUID(), version: 43)],
           epochs: [SyncEpoch(epoch: "7f3a9c2e1b5d4f60", start: 0)])
        #expect(try SyncPage.decode(page.jsonData(), schema: schema) == page)
    }

    @Test func aPageOfAnotherProtocolVersionIsRefusedBeforeItsRowsAreRead() throws {
        let page = SyncPage(kind: .delta, isComplete: true, cursor: "c1", rows: [
            SyncServerRow(row: try table("note").row(id: noteID, values: ["notebook": .uuid(notebookID), "title": .text("Groceries")]),
                          version: 42),
        ], tombstones: [])
        // A row this version refuses (no title): another version's rows
        // may be anything.
        let data = edited(edited(page.jsonData(), #""protocolVersion":1"#, #""protocolVersion":2"#), #""title":"Groceries""#, #""name":"x""#)
        #expect(throws: SyncMessageError(path: "$.protocolVersion", "version 2, and this program reads version 1 only")) {
            try SyncPage.decode(data, schema: schema)
        }
        let sameVersion = edited(page.jsonData(), #""title":"Groceries""#, #""name":"x""#)
        #expect(throws: SyncMessageError.self) { try SyncPage.decode(sameVersion, schema: schema) }
    }

    @Test func aPageOfALaterDeclarationLeavesOutTheTablesAndColumnsThisOneLacks() throws {
        let tag = UUID()
        let page = SyncPage(kind: .snapshot, isComplete: true, cursor: "c2", rows: [
            SyncServerRow(row: try table("note", in: laterSchema).row(
                id: noteID, values: ["notebook": .uuid(notebookID), "title": .text("Groceries"), "color": .integer(3)]), version: 42),
            SyncServerRow(row: try table("tag", in: laterSchema).row(id: tag, values: [:]), version: 44),
        ], tombstones: [SyncTombstone(table: "tag", id: UUID(), version: 45)])
        let read = try SyncPage.decode(page.jsonData(), schema: schema)
        #expect(read.rows.map(\.row.values) == [["notebook": .uuid(notebookID), "title": .text("Groceries")]])
        #expect(read.tombstones.isEmpty)
    }

    @Test func theLastPagesDigestsAreReadBackForTheDeclaredTablesOnly() throws {
        let note = SyncTableDigest(table: "note", columns: ["notebook", "title", "body"], rows: 12, checksum: 0x0123_4567_89ab_cdef)
        let tag = SyncTableDigest(table: "tag", columns: [], rows: 1, checksum: 1)
        let page = SyncPage(kind: .delta, isComplete: true, cursor: "c3", rows: [], tombstones: [], digests: [note, tag])
        #expect(String(decoding: page.jsonData(), as: UTF8.self).contains(#""checksum":"0123456789abcdef""#))
        #expect(try SyncPage.decode(page.jsonData(), schema: schema).digests == [note])
        let upper = edited(page.jsonData(), "0123456789abcdef", "0123456789ABCDEF")
        #expect(throws: SyncMessageError.self) { try SyncPage.decode(upper, schema: schema) }
    }

    @Test func aMessageOfAnotherProtocolVersionIsRefused() throws {
        let data = edited(try batch().jsonData(), #""protocolVersion":1"#, #""protocolVersion":2"#)
        #expect(throws: SyncMessageError(path: "$.protocolVersion", "version 2, and this program reads version 1 only")) {
            try SyncChangeBatch.decode(data, schema: schema)
        }
    }
}
