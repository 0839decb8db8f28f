import Foundation
import SyncRowSealing
import SyncSchema
import SyncSealing
import Testing

/// A device's rows of end-to-end tables, sealed into their server view and
/// opened back: everything a hostile server could do to one is refused,
/// naming the row.
@Suite struct SyncRowSealerTests {
    /// Notebooks (groups) and their notes, members, and diaries of each
    /// user's own: all sealed but the members.
    static let schema = try! SyncSchema(tables: [
        SyncTable(name: "notebook", primaryKey: "id", conflicts: .serverWins, columns: [
            SyncColumn(name: "id", type: .uuid, isRequired: true),
            SyncColumn(name: "name", type: .text, isRequired: true, maximumLength: 20),
        ], access: .owner, isEndToEnd: true),
        SyncTable(name: "note", primaryKey: "id", conflicts: .serverWins, columns: [
            SyncColumn(name: "id", type: .uuid, isRequired: true),
            SyncColumn(name: "notebook", type: .uuid, isRequired: true, references: SyncReference(table: "notebook", onDelete: .cascade)),
            SyncColumn(name: "title", type: .text, isRequired: true, maximumLength: 20),
            SyncColumn(name: "body", type: .text, maximumLength: 1_000),
        ], access: .group(column: "notebook"), isEndToEnd: true),
        SyncTable(name: "member", primaryKey: "id", conflicts: .serverWins, columns: [
            SyncColumn(name: "id", type: .uuid, isRequired: true),
            SyncColumn(name: "notebook", type: .uuid, isRequired: true, references: SyncReference(table: "notebook", onDelete: .cascade)),
            SyncColumn(name: "user", type: .text, isRequired: true, maximumLength: 100),
        ], access: .membership(group: "notebook", user: "user")),
        SyncTable(name: "diary", primaryKey: "id", conflicts: .serverWins, columns: [
            SyncColumn(name: "id", type: .uuid, isRequired: true),
            SyncColumn(name: "text", type: .text, isRequired: true, maximumLength: 100),
        ], access: .owner, isEndToEnd: true),
    ])

    let sealer = SyncRowSealer(schema: schema, user: "alice")
    let work = UUID(), home = UUID()
    var keys: [String: PartitionKey] = [:]

    init() throws {
        for partition in [SyncPartition.group(table: "notebook", id: work), SyncPartition.group(table: "notebook", id: home),
                          SyncPartition.user("alice")] {
            keys[partition] = try PartitionKey.random(partition: partition, epoch: 1)
        }
    }

    func note(_ id: UUID = UUID(), in notebook: UUID, title: String = "Canary 7") throws -> SyncRow {
        try Self.schema.table("note")!.row(id: id, values: ["notebook": .uuid(notebook), "title": .text(title), "body": .text("Plan")])
    }

    func sealed(_ row: SyncRow) throws -> SyncRow {
        try sealer.seal(row, key: keys[try sealer.partition(of: row)]!, sealedCounter: 5, change: UUID())
    }

    func open(_ row: SyncRow) throws(SyncRowRefusal) -> SyncRow {
        try sealer.open(row) { partition, epoch in keys[partition].flatMap { $0.epoch == epoch ? $0 : nil } }.row
    }

    func replacing(_ row: SyncRow, _ values: [String: SyncValue]) throws -> SyncRow {
        try Self.schema.serverView.table(row.table)!.row(id: row.id, values: row.values.merging(values) { $1 })
    }

    @Test func aRowTravelsAsItsClearColumnsAndOneSealedValueAndOpensBackEqual() throws {
        let row = try note(in: work)
        let sent = try sealed(row)
        #expect(Set(sent.values.keys) == ["notebook", SyncTable.sealedColumn])
        #expect(!"\(sent.values)".contains("Canary") && !"\(sent.values)".contains("Plan"))
        #expect(try open(sent) == row)
        let diary = try Self.schema.table("diary")!.row(id: UUID(), values: ["text": .text("Dear diary")])
        #expect(try sealer.partition(of: diary) == "user:alice")
        #expect(try open(sealed(diary)) == diary)
    }

    @Test func aRowOfATableThatIsNotEndToEndIsLeftAsItIs() throws {
        let member = try Self.schema.table("member")!.row(id: UUID(), values: ["notebook": .uuid(work), "user": .text("bob")])
        #expect(try sealed(member) == member)
        #expect(try open(member) == member)
    }

    /// A server that serves the table in the clear (a downgrade) is refused.
    @Test func aRowServedUnsealedIsRefused() throws {
        let row = try note(in: work)
        #expect(throws: SyncRowRefusal.notSealed(table: "note", id: row.id)) { try open(row) }
        let sealedValues = try sealed(row).values
        let both = Self.schema.table("note")!.storedRow(id: row.id, values: row.values.merging(sealedValues) { $1 })
        #expect(throws: SyncRowRefusal.notSealed(table: "note", id: row.id)) { try open(both) }
    }

    @Test func aSealedValueSwappedBetweenRowsIsRefused() throws {
        let first = try sealed(try note(in: work)), second = try sealed(try note(in: work, title: "Other"))
        let swapped = try replacing(first, [SyncTable.sealedColumn: second.values[SyncTable.sealedColumn]!])
        #expect(throws: SyncRowRefusal.notAuthentic(table: "note", id: first.id)) { try open(swapped) }
    }

    /// Moved to another group by its clear group column: its partition's
    /// key opens it, but it was bound to the first.
    @Test func aRowMovedToAnotherPartitionIsRefused() throws {
        let sent = try sealed(try note(in: work))
        let moved = try replacing(sent, ["notebook": .uuid(home)])
        #expect(throws: SyncRowRefusal.notAuthentic(table: "note", id: sent.id)) { try open(moved) }
    }

    @Test func aFlippedBitIsRefused() throws {
        let sent = try sealed(try note(in: work))
        guard case .text(let text)? = sent.values[SyncTable.sealedColumn], var bytes = Data(base64Encoded: text) else {
            Issue.record("no sealed value"); return
        }
        bytes[bytes.count - 20] ^= 0x10
        let flipped = try replacing(sent, [SyncTable.sealedColumn: .text(bytes.base64EncodedString())])
        #expect(throws: SyncRowRefusal.notAuthentic(table: "note", id: sent.id)) { try open(flipped) }
    }

    /// A value that records a format before end-to-end tables, or after
    /// what this program reads, is refused even under the right key.
    @Test func aValueOfAnotherDeclarationFormatIsRefused() throws {
        let row = try note(in: work), partition = SyncPartition.group(table: "notebook", id: work)
        for format: UInt8 in [2, UInt8(SyncSchema.formats.upperBound + 1)] {
            let value = try SealedValue.seal(Array(#"{"title":"Plan"}"#.utf8), for: SealedRow(table: "note", id: row.id, partition: partition),
                                             key: keys[partition]!, declarationFormat: format, sealedCounter: 1, change: UUID())
            let sent = try Self.schema.serverView.table("note")!.row(id: row.id, values: ["notebook": .uuid(work),
                                                                                      SyncTable.sealedColumn: .text(value.text)])
            #expect(throws: SyncRowRefusal.malformed(table: "note", id: row.id, "it records declaration format \(format)")) {
                try open(sent)
            }
        }
    }

    @Test func aRowOfAPartitionWithoutItsKeyIsNotOpened() throws {
        let stranger = UUID()
        let key = try PartitionKey.random(partition: SyncPartition.group(table: "notebook", id: stranger), epoch: 4)
        let row = try note(in: stranger)
        let sent = try sealer.seal(row, key: key, sealedCounter: 1, change: UUID())
        #expect(throws: SyncRowRefusal.noKey(table: "note", id: row.id, partition: key.partition, epoch: 4)) { try open(sent) }
    }

    /// What opens is checked as any row the server sends: a writer with the
    /// key that breaks the declaration is refused too.
    @Test func aSealedValueThatBreaksTheDeclarationIsRefused() throws {
        let id = UUID(), partition = SyncPartition.group(table: "notebook", id: work)
        let tooLong = try SealedValue.seal(Array(#"{"title":"A title much longer than twenty"}"#.utf8),
                                           for: SealedRow(table: "note", id: id, partition: partition), key: keys[partition]!,
                                           declarationFormat: 3, sealedCounter: 1, change: UUID())
        let sent = try Self.schema.serverView.table("note")!.row(id: id, values: ["notebook": .uuid(work),
                                                                              SyncTable.sealedColumn: .text(tooLong.text)])
        do {
            _ = try open(sent)
            Issue.record("a title over its maximum length was opened")
        } catch {
            guard case .breaksDeclaration(let table, let refused, _) = error else { Issue.record("\(error)"); return }
            #expect(table == "note" && refused == id)
        }
    }
}
