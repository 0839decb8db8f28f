import Foundation
import PlayersShared
import SyncSchema
import Testing

/// The hash of a row that a table's digest adds up (``SyncRowHasher``):
/// fixed, the same for a player as Players' digest always was, and one
/// text for one row.
@Suite struct SyncRowHasherTests {
    static let id = UUID(uuidString: "00000000-0000-0000-0000-000000000001")!
    static let table = SyncTable(name: "item", primaryKey: "id", conflicts: .mergeByColumn, columns: [
        SyncColumn(name: "id", type: .uuid, isRequired: true),
        SyncColumn(name: "owner", type: .uuid),
        SyncColumn(name: "count", type: .integer),
        SyncColumn(name: "weight", type: .real),
        SyncColumn(name: "done", type: .boolean),
        SyncColumn(name: "label", type: .text, maximumLength: 10),
        SyncColumn(name: "note", type: .text, maximumLength: 10),
    ])

    @Test func theHashOfARowIsFixed() {
        // The first 8 bytes of the MD5 of
        // `00000000-0000-0000-0000-000000000001|7|00000000-0000-0000-0000-000000000001|-3|1.5|true|a\|b\\c|x|y\`
        // (Python's hashlib): the label escaped, the last text as it is.
        let values: [String: SyncValue] = ["owner": .uuid(Self.id), "count": .integer(-3), "weight": .real(1.5), "done": .boolean(true),
                                           "label": .text("a|b\\c"), "note": .text("x|y\\")]
        #expect(SyncRowHasher().hash(Self.table, id: Self.id, version: 7, values: values) == 0xeb41_f885_c449_da80)
    }

    @Test func nullAndAMissingColumnHashAlike() {
        let hasher = SyncRowHasher()
        #expect(hasher.hash(Self.table, id: Self.id, version: 1, values: ["count": .null])
            == hasher.hash(Self.table, id: Self.id, version: 1, values: [:]))
    }

    @Test func aSeparatorInATextCannotMakeTwoRowsOneText() {
        let hasher = SyncRowHasher()
        let joined = hasher.hash(Self.table, id: Self.id, version: 1, values: ["label": .text("a|b"), "note": .text("c")])
        let moved = hasher.hash(Self.table, id: Self.id, version: 1, values: ["label": .text("a"), "note": .text("b|c")])
        #expect(joined != moved)
        #expect(hasher.hash(Self.table, id: Self.id, version: 1, values: ["label": .text("\\N")])
            != hasher.hash(Self.table, id: Self.id, version: 1, values: ["label": .null]))
    }

    /// A player's hash is the one Players' servers before the engine gave
    /// it (the MD5 of `uuid|version|score|name`): the digests of a database
    /// they kept and the engine's agree.
    @Test func aPlayerHashesAsPlayersDigestAlwaysDid() {
        #expect(SyncRowHasher().hash(PlayersSchema.player, id: Self.id, version: 5, values: ["name": .text("Zoé"), "score": .integer(42)])
            == 0x8603_32c2_0d4e_74ab)
    }

    @Test func aDigestCoversTheColumnsOfItsDeclarationOnly() throws {
        let digest = SyncTableDigest(table: Self.table)
        #expect(digest.columns == ["owner", "count", "weight", "done", "label", "note"])
        #expect(digest.covers(Self.table))
        let earlier = SyncTable(name: "item", primaryKey: "id", conflicts: .mergeByColumn, columns: Array(Self.table.columns.dropLast()))
        #expect(!digest.covers(earlier))
    }

    @Test func aDigestSaysItsTableItsRowsAndItsChecksum() {
        var digest = SyncTableDigest(table: Self.table)
        #expect(digest.description == "item: 0 rows, checksum 0000000000000000")
        digest.toggle(0x1f0c_9b2e_77a3_4d85)
        #expect(digest.description == "item: 1 row, checksum 1f0c9b2e77a34d85")
        digest.toggle(0x0000_0000_0000_0001)
        #expect(digest.description == "item: 2 rows, checksum 1f0c9b2e77a34d84")
    }
}
