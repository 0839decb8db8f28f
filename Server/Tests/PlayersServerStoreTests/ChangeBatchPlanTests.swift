import Foundation
import PlayersProtocol
import PlayersServerStore
import Testing

/// The plan of a batch of `POST /v1/changes` in memory: the answers and
/// end state of change-by-change application, as net rows.
@Suite struct ChangeBatchPlanTests {
    let date = Date(timeIntervalSince1970: 1_700_000_000)

    func save(_ uuid: UUID, _ name: String, _ score: Int, base: Int64?, id: UUID = UUID()) -> PlayersChangeBatch.Change {
        .init(mutationID: id, uuid: uuid, kind: .save, name: name, score: score, baseVersion: base)
    }

    func delete(_ uuid: UUID, base: Int64?, id: UUID = UUID()) -> PlayersChangeBatch.Change {
        .init(mutationID: id, uuid: uuid, kind: .delete, baseVersion: base)
    }

    /// The plan of `changes` on these rows, at ``date``.
    func makePlan(
        _ changes: [PlayersChangeBatch.Change],
        recorded: [RecordedAnswer] = [],
        players: [ServerPlayer] = [],
        tombstones: [ServerTombstone] = [],
        counter: Int64
    ) throws -> ChangeBatchPlan {
        try ChangeBatchPlan(
            PlayersChangeBatch(changes: changes),
            recorded: Dictionary(uniqueKeysWithValues: recorded.map { ($0.result.mutationID, $0) }),
            players: players, tombstones: tombstones, counter: counter, date: date)
    }

    @Test func changesOfOneUUIDSeeTheEarlierOnesOfTheBatch() throws {
        let uuid = UUID()
        let plan = try makePlan(
            [save(uuid, "Arthur", 1, base: nil), save(uuid, "Arthur", 2, base: 11), delete(uuid, base: 12),
             save(uuid, "Arthur", 3, base: 13)],
            counter: 10)
        #expect(plan.results.map(\.status) == [.applied, .applied, .applied, .applied])
        #expect(plan.results.map(\.version) == [11, 12, 13, 14])
        #expect(plan.counter == 14)
        // Created, then brought back from its tombstone: one live row, no
        // tombstone.
        #expect(plan.playersToSave == [ServerPlayer(uuid: uuid, name: "Arthur", score: 3, version: 14)])
        #expect(plan.playersToDelete.isEmpty && plan.tombstonesToSave.isEmpty && plan.tombstonesToDelete.isEmpty)
        #expect(plan.resultsToRecord.map(\.result) == plan.results)
    }

    @Test func deletionsAndRevivalsAreNetRowsOfBothTables() throws {
        let live = ServerPlayer(uuid: UUID(), name: "Arthur", score: 1, version: 1)
        let tombstone = ServerTombstone(uuid: UUID(), version: 2, deletedAt: date.addingTimeInterval(-60))
        let plan = try makePlan(
            [delete(live.uuid, base: 1), save(tombstone.uuid, "Barbara", 5, base: 2)],
            players: [live], tombstones: [tombstone], counter: 2)
        #expect(plan.results.map(\.version) == [3, 4])
        #expect(plan.playersToDelete == [live.uuid])
        #expect(plan.tombstonesToSave == [ServerTombstone(uuid: live.uuid, version: 3, deletedAt: date)])
        #expect(plan.tombstonesToDelete == [tombstone.uuid])
        #expect(plan.playersToSave == [ServerPlayer(uuid: tombstone.uuid, name: "Barbara", score: 5, version: 4)])
    }

    @Test func conflictsAreRecordedAndWriteNoRow() throws {
        let player = ServerPlayer(uuid: UUID(), name: "Arthur", score: 1, version: 3)
        let tombstone = ServerTombstone(uuid: UUID(), version: 4, deletedAt: date)
        let plan = try makePlan([save(player.uuid, "Arthur", 2, base: 1), save(tombstone.uuid, "Barbara", 2, base: 1)],
                            players: [player], tombstones: [tombstone], counter: 4)
        #expect(plan.results.map(\.status) == [.conflict, .conflict])
        #expect(plan.results.map(\.player) == [player.entry, nil])
        #expect(plan.results.map(\.version) == [nil, 4])
        #expect(plan.resultsToRecord.map(\.result) == plan.results)
        #expect(plan.counter == 4)
        #expect(plan.playersToSave.isEmpty && plan.playersToDelete.isEmpty)
        #expect(plan.tombstonesToSave.isEmpty && plan.tombstonesToDelete.isEmpty)
    }

    @Test func aRetriedBatchGetsTheRecordedAnswersAndChangesNothing() throws {
        let player = ServerPlayer(uuid: UUID(), name: "Arthur", score: 1, version: 1)
        let changes = [save(player.uuid, "Arthur", 2, base: 1), save(UUID(), "Zoé", 3, base: nil)]
        let first = try makePlan(changes, players: [player], counter: 1)
        // The retry finds the rows the first try wrote, and its answers.
        let retry = try makePlan(changes, recorded: first.resultsToRecord, players: first.playersToSave, counter: first.counter)
        #expect(retry.results == first.results)
        #expect(retry.resultsToRecord.isEmpty)
        #expect(retry.counter == first.counter)
        #expect(retry.playersToSave.isEmpty && retry.playersToDelete.isEmpty)
        #expect(retry.tombstonesToSave.isEmpty && retry.tombstonesToDelete.isEmpty)
    }

    @Test func recordedAndNewChangesAreAnsweredInOrderAndOnlyTheNewTakeVersions() throws {
        let old = [save(UUID(), "Arthur", 1, base: nil), save(UUID(), "Barbara", 2, base: nil)]
        let first = try makePlan(old, counter: 0)
        let new = [save(UUID(), "Craig", 3, base: nil), save(UUID(), "Zoé", 4, base: nil)]
        let plan = try makePlan([new[0], old[0], new[1], old[1]], recorded: first.resultsToRecord,
                            players: first.playersToSave, counter: first.counter)
        #expect(plan.results == [.applied(new[0], version: 3), first.results[0], .applied(new[1], version: 4), first.results[1]])
        #expect(plan.resultsToRecord.map(\.result) == [plan.results[0], plan.results[2]])
        #expect(plan.playersToSave.map(\.name) == ["Craig", "Zoé"])
        #expect(plan.counter == 4)
    }

    @Test func aMutationIDRepeatedInTheBatchForTheSameChangeGetsItsFirstAnswer() throws {
        // `PlayersChangeBatch.validate()` refuses such a batch; the plan
        // still answers as the store, which recorded the first answer,
        // would.
        let first = save(UUID(), "Arthur", 1, base: nil)
        let plan = try makePlan([first, first], counter: 0)
        let answer = PlayersChangeResults.Result.applied(first, version: 1)
        #expect(plan.results == [answer, answer])
        #expect(plan.resultsToRecord == [RecordedAnswer(answer, for: first)])
        #expect(plan.counter == 1)
    }

    /// A mutation id names one change: another change with it is refused,
    /// never answered with the first one's result.
    @Test func aMutationIDUsedForAnotherChangeIsRefused() throws {
        let (id, uuid) = (UUID(), UUID())
        let first = try makePlan([save(uuid, "Arthur", 1, base: nil, id: id)], counter: 0)
        #expect(throws: MutationIDReusedError(mutationID: id)) {
            try makePlan([save(UUID(), "Zaphod", 2, base: nil, id: id)], recorded: first.resultsToRecord,
                         players: first.playersToSave, counter: first.counter)
        }
    }

    /// Answers recorded before they were bound to their change (a bare
    /// result) are still given to a retry.
    @Test func anAnswerRecordedWithoutItsChangeIsStillGiven() throws {
        let change = save(UUID(), "Arthur", 1, base: nil)
        let result = PlayersChangeResults.Result.applied(change, version: 7)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let bare = try RecordedAnswer(json: String(decoding: try encoder.encode(result), as: UTF8.self))
        #expect(bare.change == nil)
        #expect(try bare.answer(toRetryOf: change) == result)
        #expect(try RecordedAnswer(json: try RecordedAnswer(result, for: change).json()) == RecordedAnswer(result, for: change))
    }
}
