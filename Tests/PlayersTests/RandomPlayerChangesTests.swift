import Players
import PlayersShared
import TestSupport
import Testing

@Suite struct RandomPlayerChangesTests {
    static let seeds = TestSeeds("RANDOM_CHANGES", test: "RandomPlayerChangesTests", correctness: 20, long: 200)

    @Test func anEmptyTableGetsEightRandomPlayersAndNothingElse() {
        for seed in Self.seeds.all {
            var generator = SeededRandom(seed: seed)
            let changes = RandomPlayerChanges<Int>(existing: [], using: &generator)
            #expect(changes.insertions.count == 8, "seed \(seed) (\(Self.seeds.replay(seed)))")
            #expect(changes.insertions.allSatisfy { !$0.name.isEmpty && (0...1000).contains($0.score) && $0.score % 10 == 0 },
                    "seed \(seed) (\(Self.seeds.replay(seed)))")
            #expect(changes.deletion == nil)
            #expect(changes.scoreChanges.isEmpty)
        }
    }

    @Test func aTableGetsAtMostOneNewPlayerAndNoScoreForItsDeletedOne() {
        let existing = Array(0..<8)
        for seed in Self.seeds.all {
            var generator = SeededRandom(seed: seed)
            var sawEachKind = (insertion: false, deletion: false, scoreChange: false)
            for _ in 0..<200 {
                let changes = RandomPlayerChanges(existing: existing, using: &generator)
                let replay = "seed \(seed) (\(Self.seeds.replay(seed)))"
                #expect(changes.insertions.count <= 1, "\(replay)")
                #expect(changes.deletion.map(existing.contains) ?? true, "\(replay)")
                #expect(!changes.scoreChanges.contains { $0.player == changes.deletion }, "\(replay)")
                #expect(Set(changes.scoreChanges.map(\.player)).count == changes.scoreChanges.count, "\(replay)")
                #expect(changes.scoreChanges.allSatisfy { (0...1000).contains($0.score) && $0.score % 10 == 0 }, "\(replay)")
                sawEachKind.insertion = sawEachKind.insertion || !changes.insertions.isEmpty
                sawEachKind.deletion = sawEachKind.deletion || changes.deletion != nil
                sawEachKind.scoreChange = sawEachKind.scoreChange || !changes.scoreChanges.isEmpty
            }
            // Each kind has a chance of at least 1/2 per draw.
            #expect(sawEachKind.insertion && sawEachKind.deletion && sawEachKind.scoreChange, "seed \(seed) (\(Self.seeds.replay(seed)))")
        }
    }

    @Test func theSameSeedDrawsTheSameChanges() {
        var first = SeededRandom(seed: 7), second = SeededRandom(seed: 7)
        let existing = Array(0..<8)
        for _ in 0..<20 {
            let a = RandomPlayerChanges(existing: existing, using: &first)
            let b = RandomPlayerChanges(existing: existing, using: &second)
            #expect(a.insertions.map(\.name) == b.insertions.map(\.name))
            #expect(a.insertions.map(\.score) == b.insertions.map(\.score))
            #expect(a.deletion == b.deletion)
            #expect(a.scoreChanges.map(\.player) == b.scoreChanges.map(\.player))
            #expect(a.scoreChanges.map(\.score) == b.scoreChanges.map(\.score))
        }
    }
}
