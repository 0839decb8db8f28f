import Players
import Testing

@Suite struct RandomPlayerChangesTests {
    @Test func anEmptyTableGetsEightRandomPlayersAndNothingElse() {
        let changes = RandomPlayerChanges<Int>(existing: [])
        #expect(changes.insertions.count == 8)
        #expect(changes.insertions.allSatisfy { !$0.name.isEmpty && (0...1000).contains($0.score) && $0.score % 10 == 0 })
        #expect(changes.deletion == nil)
        #expect(changes.scoreChanges.isEmpty)
    }

    @Test func aTableGetsAtMostOneNewPlayerAndNoScoreForItsDeletedOne() {
        let existing = Array(0..<8)
        var sawEachKind = (insertion: false, deletion: false, scoreChange: false)
        for _ in 0..<200 {
            let changes = RandomPlayerChanges(existing: existing)
            #expect(changes.insertions.count <= 1)
            #expect(changes.deletion.map(existing.contains) ?? true)
            #expect(!changes.scoreChanges.contains { $0.player == changes.deletion })
            #expect(Set(changes.scoreChanges.map(\.player)).count == changes.scoreChanges.count)
            #expect(changes.scoreChanges.allSatisfy { (0...1000).contains($0.score) && $0.score % 10 == 0 })
            sawEachKind.insertion = sawEachKind.insertion || !changes.insertions.isEmpty
            sawEachKind.deletion = sawEachKind.deletion || changes.deletion != nil
            sawEachKind.scoreChange = sawEachKind.scoreChange || !changes.scoreChanges.isEmpty
        }
        // Each kind has a chance of at least 1/2 per draw.
        #expect(sawEachKind.insertion && sawEachKind.deletion && sawEachKind.scoreChange)
    }
}
