import Foundation
import PlayersProtocol
import Testing
import TestSupport

/// A players page written without `JSONEncoder` (``PlayersPayload/jsonBytes()``)
/// is the page `JSONEncoder` writes, byte for byte.
@Suite struct PlayersPayloadTextTests {
    static let seeds = TestSeeds("PAYLOAD_TEXT", test: "PlayersPayloadTextTests", correctness: 4, long: 40)
    static let pieces = ["a", "Zoé", "⚽", "\"", "\\", "/", " ", "\u{0}", "\u{8}", "\u{9}", "\u{A}", "\u{C}", "\u{D}", "\u{1F}", "\u{7F}",
                         "\u{85}", "\u{2028}", "e\u{301}", "😀", "<", "&"]

    @Test func everyRandomPageIsWrittenAsJSONEncoderWritesIt() throws {
        for seed in Self.seeds.all {
            var random = SeededRandom(seed: seed)
            for round in 0..<300 {
                func text() -> String {
                    (0..<Int.random(in: 0...6, using: &random)).map { _ in Self.pieces.randomElement(using: &random)! }.joined()
                }
                func maybe<T>(_ value: T) -> T? { Bool.random(using: &random) ? value : nil }
                let players = (0..<Int.random(in: 0...4, using: &random)).map { _ in
                    PlayersPayload.PlayerEntry(uuid: UUID(), name: text(), score: Int.random(in: -5...1_000_000_000, using: &random),
                                               version: maybe(Int64.random(in: 1...Int64.max, using: &random)))
                }
                let tombstones = (0..<Int.random(in: 0...3, using: &random)).map { _ in
                    PlayersPayload.Tombstone(uuid: UUID(), version: Int64.random(in: 1...1_000, using: &random))
                }
                let page = PlayersPayload(
                    kind: Bool.random(using: &random) ? .snapshot : .delta, complete: Bool.random(using: &random), cursor: maybe(text()),
                    next: maybe("/v1/players?since=\(text())"), players: players, tombstones: tombstones,
                    epochs: maybe([SyncEpochs.one, SyncEpochs.two].prefix(Int.random(in: 0...2, using: &random)).map { $0 }),
                    digest: maybe(PlayersDigest(players: Int.random(in: 0...100, using: &random), checksum: UInt64.random(in: 0...UInt64.max, using: &random))))
                let encoded = try page.jsonData()
                #expect(page.jsonBytes() == Array(encoded),
                        "seed \(seed) (\(Self.seeds.replay(seed))), round \(round): \(String(decoding: encoded, as: UTF8.self))")
            }
        }
    }

    enum SyncEpochs {
        static let one = PlayersEpoch(epoch: "7f3a9c2e1b5d4f60", start: 0)
        static let two = PlayersEpoch(epoch: "0b5d4f607f3a9c2e", start: 120)
    }
}
