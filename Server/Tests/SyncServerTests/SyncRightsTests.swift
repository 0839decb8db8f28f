import Foundation
import ServerTestSupport
import SyncSchema
import SyncServer
import Testing

/// The rules of access (``SyncRights``), as a batch applies them
/// (``SyncChangePlan``): each change checked against the row as stored
/// and the writer's memberships, each row written with its owner and
/// partition.
@Suite struct SyncRightsTests {
    let alice = SyncUser(name: "alice", roles: [])
    let bob = SyncUser(name: "bob", roles: [])

    static func upsert(_ table: String, _ id: UUID, _ values: [String: SyncValue], base: Int64? = nil) throws -> SyncChange {
        try MemoryRows(schema: .testUsers).upsert(table, id, values, base: base)
    }

    static func delete(_ table: String, _ id: UUID, base: Int64?) throws -> SyncChange {
        try MemoryRows(schema: .testUsers).delete(table, id, base: base)
    }

    /// Alice's notebook with a note, in a store of the users' declaration.
    func alicesNotebook() throws -> (MemoryRows, notebook: UUID, note: UUID) {
        var store = MemoryRows(schema: .testUsers)
        let (notebook, note) = (UUID(), UUID())
        let results = try store.apply([
            try Self.upsert("notebook", notebook, ["name": .text("Work")]),
            try Self.upsert("note", note, ["notebook": .uuid(notebook), "title": .text("Plan")]),
        ], by: alice)
        #expect(results.map(\.status) == [.applied, .applied])
        return (store, notebook, note)
    }

    @Test func aRowCreatedTakesItsWriterAsOwnerAndItsGroupsPartition() throws {
        var (store, notebook, note) = try alicesNotebook()
        let group = SyncPartition.group(SyncRowKey(table: "notebook", id: notebook))
        #expect(store.rows[SyncRowKey(table: "notebook", id: notebook)]?.owner == "alice")
        #expect(store.rows[SyncRowKey(table: "notebook", id: notebook)]?.partition == group)
        #expect(store.rows[SyncRowKey(table: "note", id: note)]?.partition == group)
        let diary = UUID()
        _ = try store.apply([try Self.upsert("diary", diary, ["text": .text("Dear")])], by: alice)
        #expect(store.rows[SyncRowKey(table: "diary", id: diary)]?.partition == "user:alice")
        // Deleted: the tombstone keeps its partition and owner.
        _ = try store.apply([try Self.delete("note", note, base: 2)], by: alice)
        #expect(store.rows[SyncRowKey(table: "note", id: note)]?.partition == group)
        #expect(store.rows[SyncRowKey(table: "note", id: note)]?.isLive == false)
    }

    @Test func anotherUsersRowIsRefusedWithNothingOfItAndNothingWritten() throws {
        var (store, notebook, note) = try alicesNotebook()
        let before = store.rows
        let results = try store.apply([
            try Self.upsert("notebook", notebook, ["name": .text("Taken")], base: 1),
            try Self.upsert("note", note, ["title": .text("Mine")], base: 2),
            try Self.upsert("note", UUID(), ["notebook": .uuid(notebook), "title": .text("Planted")]),
            try Self.delete("note", note, base: 2),
        ], by: bob)
        #expect(results.map(\.status) == [.refused, .refused, .refused, .refused])
        #expect(results.allSatisfy { $0.serverRow == nil && $0.version == nil && $0.refusal != nil })
        #expect(store.rows == before)
        #expect(store.lastPlan?.answersToRecord.isEmpty == true, "a refusal is never kept: the change sent again is checked again")
    }

    @Test func aMemberWritesTheGroupsRowsButNeitherTheGroupNorItsMemberships() throws {
        var (store, notebook, note) = try alicesNotebook()
        let membership = UUID()
        _ = try store.apply([try Self.upsert("member", membership, ["notebook": .uuid(notebook), "user": .text("bob")])], by: alice)
        #expect(store.lastPlan?.usersWithChangedAccess == ["bob"])
        let results = try store.apply([
            try Self.upsert("note", note, ["title": .text("Bob's plan")], base: 2),
            try Self.upsert("notebook", notebook, ["name": .text("Bob's")], base: 1),
            try Self.upsert("member", UUID(), ["notebook": .uuid(notebook), "user": .text("carol")]),
        ], by: bob)
        #expect(results.map(\.status) == [.applied, .refused, .refused])
        // Bob reads the notebook: the refusal gives it back to his device.
        #expect(results[1].serverRow?.values["name"] == .text("Work"))
        #expect(results[2].refusal?.contains("the memberships of a group are written by its owner") == true)
    }

    @Test func aRowMovedToAGroupThatIsNotTheWritersIsRefused() throws {
        var (store, _, note) = try alicesNotebook()
        let bobs = UUID()
        _ = try store.apply([try Self.upsert("notebook", bobs, ["name": .text("Bob's")])], by: bob)
        let moved = try store.apply([try Self.upsert("note", note, ["notebook": .uuid(bobs)], base: 2)], by: alice)
        #expect(moved.map(\.status) == [.refused])
        #expect(moved[0].refusal?.contains("moves the note row") == true)
    }

    @Test func aGroupCreatedInABatchTakesItsRowsInTheSameBatch() throws {
        var store = MemoryRows(schema: .testUsers)
        let notebook = UUID()
        let results = try store.apply([
            try Self.upsert("notebook", notebook, ["name": .text("New")]),
            try Self.upsert("note", UUID(), ["notebook": .uuid(notebook), "title": .text("First")]),
            try Self.upsert("member", UUID(), ["notebook": .uuid(notebook), "user": .text("bob")]),
        ], by: alice)
        #expect(results.map(\.status) == [.applied, .applied, .applied])
        #expect(store.lastPlan?.grants.compactMap(\.grant).map(\.user).sorted() == ["alice", "bob"])
    }

    @Test func aSharedTablesWriteNeedsOneOfItsRoles() throws {
        let schema = try SyncSchema(tables: [SyncTable(name: "player", primaryKey: "id", conflicts: .serverWins, columns: [
            SyncColumn(name: "id", type: .uuid, isRequired: true), SyncColumn(name: "name", type: .text, isRequired: true, maximumLength: 100),
        ], access: .shared(writers: ["editor"]))])
        var store = MemoryRows(schema: schema)
        let player = try store.upsert("player", UUID(), ["name": .text("Arthur")])
        #expect(try store.apply([player], by: bob).map(\.status) == [.refused])
        #expect(try store.apply([player], by: SyncUser(name: "carol", roles: ["editor"])).map(\.status) == [.applied])
    }
}
