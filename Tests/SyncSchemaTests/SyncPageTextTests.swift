import Foundation
@testable import SyncSchema
import Testing
import TestSupport

/// A page written without `JSONEncoder` (``SyncPage/jsonData()``) is the
/// page `JSONEncoder` writes, byte for byte, and the page read from it in
/// one pass (``SyncPage/decode(_:schema:)``) is the page written.
@Suite struct SyncPageTextTests {
    static let seeds = TestSeeds("PAGE_TEXT", test: "SyncPageTextTests", correctness: 4, long: 40)
    static let pieces = ["a", "Zoé", "⚽", "\"", "\\", "/", " ", "\u{0}", "\u{8}", "\u{9}", "\u{A}", "\u{C}", "\u{D}", "\u{1F}", "\u{7F}",
                         "\u{2028}", "😀"]
    static let table = SyncTable(name: "item", primaryKey: "id", conflicts: .mergeByColumn, columns: [
        SyncColumn(name: "id", type: .uuid, isRequired: true),
        SyncColumn(name: "owner", type: .uuid),
        SyncColumn(name: "count", type: .integer),
        SyncColumn(name: "done", type: .boolean),
        SyncColumn(name: "label", type: .text, maximumLength: 100, allowsControlCharacters: true),
        SyncColumn(name: "weight", type: .real),
    ])

    /// A page of random rows, tombstones, epochs and digests, whose texts
    /// mix every kind of character JSON escapes.
    static func randomPage(withReals: Bool, using random: inout SeededRandom) -> SyncPage {
        func text() -> String {
            (0..<Int.random(in: 0...6, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
        }
        func maybe<T>(_ value: T) -> T? { Bool.random(using: &random) ? value : nil }
        let rows = (0..<Int.random(in: 0...4, using: &random)).map { _ in
            var values: [String: SyncValue] = [:]
            if Bool.random(using: &random) { values["owner"] = Bool.random(using: &random) ? .uuid(UUID()) : .null }
            if Bool.random(using: &random) { values["count"] = .integer(Int64.random(in: .min ... .max, using: &random)) }
            if Bool.random(using: &random) { values["done"] = .boolean(Bool.random(using: &random)) }
            if Bool.random(using: &random) { values["label"] = .text(text()) }
            if withReals, Bool.random(using: &random) { values["weight"] = .real(Double.random(in: -1e3...1e3, using: &random)) }
            return SyncServerRow(row: table.storedRow(id: UUID(), values: values), version: Int64.random(in: 1...Int64.max, using: &random))
        }
        // A page that is not the last names the next.
        let isComplete = Bool.random(using: &random)
        let next = "/v1/sync/rows?since=\(text())"
        return SyncPage(
            kind: Bool.random(using: &random) ? .snapshot : .delta, isComplete: isComplete, cursor: text(),
            next: isComplete ? maybe(next) : next, rows: rows,
            tombstones: (0..<Int.random(in: 0...2, using: &random)).map { _ in SyncTombstone(table: "item", id: UUID(), version: 7) },
            epochs: maybe([SyncEpoch(epoch: "7f3a9c2e1b5d4f60", start: 0)]),
            digests: maybe([SyncTableDigest(table: table), SyncTableDigest(table: "other", columns: ["a", "b"], rows: 3,
                                                                           checksum: UInt64.random(in: 0...UInt64.max, using: &random))]))
    }

    @Test func everyRandomPageIsWrittenAsJSONEncoderWritesIt() throws {
        for seed in Self.seeds.all {
            var random = SeededRandom(seed: seed)
            for round in 0..<300 {
                let withReals = round % 5 == 0
                let page = Self.randomPage(withReals: withReals, using: &random)
                let encoded = try page.encodedByJSONEncoder()
                #expect(try page.jsonData() == encoded,
                        "seed \(seed) (\(Self.seeds.replay(seed))), round \(round): \(String(decoding: encoded, as: UTF8.self))")
                if !withReals {
                    #expect(page.jsonBytes() == Array(encoded), "seed \(seed), round \(round): written without JSONEncoder")
                }
            }
        }
    }

    /// Read by a declaration of `item` alone: the digest of `other`, a
    /// table it lacks, is left out.
    @Test func everyRandomPageIsReadBackEqual() throws {
        let schema = try SyncSchema(tables: [Self.table])
        for seed in Self.seeds.all {
            var random = SeededRandom(seed: seed)
            for round in 0..<300 {
                var page = Self.randomPage(withReals: round % 5 == 0, using: &random)
                let encoded = try page.jsonData()
                page.digests = page.digests?.filter { $0.table == Self.table.name }
                #expect(try SyncPage.decode(encoded, schema: schema) == page,
                        "seed \(seed) (\(Self.seeds.replay(seed))), round \(round): \(String(decoding: encoded, as: UTF8.self))")
            }
        }
    }
}
