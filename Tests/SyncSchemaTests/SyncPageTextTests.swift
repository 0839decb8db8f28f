import Foundation
@testable import SyncSchema
import Testing
import TestSupport

/// The engine's messages written by its one writer (``SyncJSONText``: a
/// page, a push, its answer) are what `JSONEncoder` writes, byte for byte,
/// and the page read from it in one pass (``SyncPage/decode(_:schema:)``)
/// is the page written.
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
            if withReals, Bool.random(using: &random) { values["weight"] = .real(real(using: &random)) }
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

    /// A real of a person's scale, or of any finite bits (the shortest
    /// text of each, with and without an exponent).
    static func real(using random: inout SeededRandom) -> Double {
        if Bool.random(using: &random) {
            // Whole, or with one to three decimals.
            let scale = [1.0, 10, 100, 1000].randomElement(using: &random)!
            return (Double.random(in: -1e3...1e3, using: &random) * scale).rounded() / scale
        }
        while true {
            let real = Double(bitPattern: UInt64.random(in: .min ... .max, using: &random))
            if real.isFinite { return real }
        }
    }

    /// The rows of a random page pushed, and answered: every operation,
    /// with and without a base version, applied and in conflict.
    @Test func everyRandomPushAndItsAnswerAreWrittenAsJSONEncoderWritesThem() throws {
        for seed in Self.seeds.all {
            var random = SeededRandom(seed: seed)
            for round in 0..<300 {
                let rows = Self.randomPage(withReals: round % 2 == 0, using: &random).rows
                let batch = SyncChangeBatch(changes: rows.map { row in
                    SyncChange(mutationID: UUID(), operation: Bool.random(using: &random) ? .upsert : .delete, row: row.row,
                               baseVersion: Bool.random(using: &random) ? row.version : nil)
                }, server: Bool.random(using: &random) ? UUID() : nil)
                let answer = SyncChangeResults(results: rows.map { row in
                    Bool.random(using: &random)
                        ? SyncPushResult(mutationID: UUID(), status: .applied, version: Bool.random(using: &random) ? row.version : nil, serverRow: nil)
                        : SyncPushResult(mutationID: UUID(), status: .conflict, version: row.version, serverRow: row.row)
                })
                let replay = "seed \(seed) (\(Self.seeds.replay(seed))), round \(round)"
                #expect(String(decoding: batch.jsonData(), as: UTF8.self) == (try FoundationJSON.text(FoundationJSON.Batch(batch))), "\(replay)")
                #expect(String(decoding: answer.jsonData(), as: UTF8.self) == (try FoundationJSON.text(FoundationJSON.Results(answer))), "\(replay)")
            }
        }
    }

    @Test func everyRandomPageIsWrittenAsJSONEncoderWritesIt() throws {
        for seed in Self.seeds.all {
            var random = SeededRandom(seed: seed)
            for round in 0..<300 {
                let withReals = round % 5 == 0
                let page = Self.randomPage(withReals: withReals, using: &random)
                let encoded = try FoundationJSON.text(FoundationJSON.Page(page))
                #expect(String(decoding: page.jsonData(), as: UTF8.self) == encoded,
                        "seed \(seed) (\(Self.seeds.replay(seed))), round \(round): \(encoded)")
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
                let encoded = page.jsonData()
                page.digests = page.digests?.filter { $0.table == Self.table.name }
                #expect(try SyncPage.decode(encoded, schema: schema) == page,
                        "seed \(seed) (\(Self.seeds.replay(seed))), round \(round): \(String(decoding: encoded, as: UTF8.self))")
            }
        }
    }
}
