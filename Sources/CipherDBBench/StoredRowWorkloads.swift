import Foundation
import Notes
import PlayersShared
import SyncSchema

/// What a sync server does for every row of every page it reads from its
/// store: its values and its columns' versions read back from the JSON
/// text that the store keeps (`SyncStoredJSON.scalars(from:)` and
/// `integers(from:)`), against Foundation's `JSONSerialization` reading
/// the same texts into dictionaries, with no check. The texts are the
/// stores' own (`SyncStoredJSON.text`, as `SyncStoredRow.Columns` writes
/// them): players (`{"name":"Zoé 7","score":7}`), and notes, whose body
/// is longer and has escapes. No database: the workloads run once, in the
/// plaintext block.
struct StoredRowWorkloads {
    let rowCount: Int

    /// A stored row's two texts.
    struct StoredRow {
        var values: String
        var versions: String
    }

    func run(_ harness: inout Harness, mode: EncryptionMode) async throws {
        guard mode == .plaintext else { return }
        let players = "stored rows: read \(rowCount) players' values and column versions"
        if harness.includes(players) {
            try await measure(players, try (0..<rowCount).map(Self.player), &harness)
        }
        let notes = "stored rows: read \(rowCount) notes' values and column versions"
        if harness.includes(notes) {
            try await measure(notes, try (0..<rowCount).map(Self.note), &harness)
        }
    }

    /// Reads every row both ways, each checking what it read: the number of
    /// values and the sum of the versions.
    private func measure(_ name: String, _ rows: [StoredRow], _ harness: inout Harness) async throws {
        let expected = try rows.reduce(into: (values: 0, versions: Int64(0))) { total, row in
            total.values += try SyncStoredJSON.scalars(from: row.values).count
            total.versions += try SyncStoredJSON.integers(from: row.versions).values.reduce(0, +)
        }
        try await harness.measure(name, mode: .plaintext, subject: {
            var read = (values: 0, versions: Int64(0))
            for row in rows {
                read.values += try SyncStoredJSON.scalars(from: row.values).count
                read.versions += try SyncStoredJSON.integers(from: row.versions).values.reduce(0, +)
            }
            try Self.check(read, expected)
        }, baseline: {
            var read = (values: 0, versions: Int64(0))
            for row in rows {
                let values = try JSONSerialization.jsonObject(with: Data(row.values.utf8)) as? [String: Any]
                let versions = try JSONSerialization.jsonObject(with: Data(row.versions.utf8)) as? [String: Any]
                read.values += values?.count ?? 0
                read.versions += versions?.values.reduce(Int64(0)) { $0 + Int64(($1 as? Int) ?? 0) } ?? 0
            }
            try Self.check(read, expected)
        })
    }

    static func check(_ read: (values: Int, versions: Int64), _ expected: (values: Int, versions: Int64)) throws {
        guard read == expected else { throw BenchError("read \(read) instead of \(expected): the workload is wrong") }
    }

    /// Player number `index` as a store keeps it; every other name is not
    /// ASCII.
    static func player(_ index: Int) throws -> StoredRow {
        let values: [String: SyncValue] = [
            "name": .text(index.isMultiple(of: 2) ? "Player \(index)" : "Zoé \(index)"), "score": .integer(Int64(index % 1_000)),
        ]
        let row = try PlayersSchema.player.row(id: uuid(index), values: values)
        return stored(row, versions: ["name": Int64(index + 1), "score": Int64(index + 2)])
    }

    /// Note number `index` as a store keeps it: a body of about a hundred
    /// characters with quotes, a tab, a new line and letters that are not
    /// ASCII, which JSON escapes or keeps as UTF-8.
    static func note(_ index: Int) throws -> StoredRow {
        let row = try NotesSchema.declaration.table("note")!.row(id: uuid(index), values: [
            "notebook": .uuid(uuid(index / 1_000)),
            "title": .text("Note \(index)"),
            "body": .text("The body of note \(index): \"quoted\",\ta tab, a new line\nand a café ☕, as long as a short paragraph."),
        ])
        return stored(row, versions: ["notebook": Int64(index + 1), "title": Int64(index + 2), "body": Int64(index + 3)])
    }

    private static func stored(_ row: SyncRow, versions: [String: Int64]) -> StoredRow {
        StoredRow(values: SyncStoredJSON.text(row.values), versions: SyncStoredJSON.text(versions))
    }

    private static func uuid(_ index: Int) -> UUID {
        GeneratedSyncSnapshot.uuid(index, kind: 3)
    }
}
