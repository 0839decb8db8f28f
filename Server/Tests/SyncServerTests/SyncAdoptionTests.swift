import Foundation
import SyncSchema
import SyncServer
import Testing

/// An earlier store taken in by the engine's store (``SyncAdoption``), on
/// rows in memory.
@Suite struct SyncAdoptionTests {
    let work = UUID(), home = UUID(), office = UUID(), server = UUID()
    let epochs = [SyncEpoch(epoch: "a6fc5905f318f6c5", start: 0), SyncEpoch(epoch: "6f57e653711384fc", start: 8)]

    /// A history at 9, its floor at 5.
    var adopted: SyncAdoptedHistory {
        SyncAdoptedHistory(server: server, epochs: epochs, counter: SyncCounter(value: 9, floor: 5), isRestored: true)
    }

    /// Two chunks: Work (9) and Home (6), then Office's tombstone (7)
    /// and the answer that deleted it.
    func chunks() throws -> (chunks: [SyncAdoptedChunk], answer: SyncRecordedAnswer) {
        func notebook(_ id: UUID, _ version: Int64) -> SyncStoredRow {
            SyncStoredRow(key: SyncRowKey(table: "notebook", id: id), version: version,
                          state: .live(values: ["name": .text("Notebook")], columnVersions: ["name": version]))
        }
        let delete = try MemoryRows().delete("notebook", office, base: 3)
        let answer = SyncRecordedAnswer(SyncPushResult(mutationID: delete.mutationID, status: .applied, version: 7), to: delete,
                                        in: "notebook", answeredAt: Date(timeIntervalSince1970: 1_000))
        return ([
            SyncAdoptedChunk(rows: [notebook(work, 9), notebook(home, 6)], next: SyncAdoptedChunk.Position(part: 0, after: "1")),
            SyncAdoptedChunk(rows: [SyncStoredRow(key: SyncRowKey(table: "notebook", id: office), version: 7,
                                                  state: .deleted(at: Date(timeIntervalSince1970: 1_000)))],
                             answers: [answer], next: nil),
        ], answer)
    }

    @Test func aStoreWithoutRowsTakesTheHistoryThenEveryChunkThenDropsTheEarlierStore() throws {
        var store = MemoryRows()
        let (chunks, answer) = try chunks()
        let steps = store.adopt(adopted, chunks: chunks)
        #expect(steps == [
            .setCounter(SyncCounter(value: 9, floor: 5)),
            .setHistory(server: server, epochs: epochs, isRestored: true),
            .forgetDigests,
            .takeChunk(after: nil),
            .takeChunk(after: SyncAdoptedChunk.Position(part: 0, after: "1")),
            .dropEarlierStore,
        ])
        #expect(store.rows.values.map(\.version).sorted() == [6, 7, 9])
        #expect(store.answers == [answer.mutationID: answer])
        #expect(SyncCounter(value: store.counter, floor: store.floor) == SyncCounter(value: 9, floor: 5))
        let history = try #require(store.history)
        #expect(history.server == server && history.epochs == epochs && history.isRestored)
    }

    @Test func theStoresOwnRowsAndAnswersMoveAfterTheAdoptedCounter() throws {
        var store = MemoryRows()
        let own = UUID()
        let change = try store.upsert("notebook", own, ["name": .text("Own")])
        _ = try store.apply(change)
        _ = store.adopt(adopted, chunks: try chunks().chunks)
        #expect(store.row("notebook", own)?.version == 10)
        #expect(store.answers[change.mutationID]?.result.version == 10)
        #expect(SyncCounter(value: store.counter, floor: store.floor) == SyncCounter(value: 10, floor: 5))
        #expect(store.changes(after: 9)?.map(\.key.id) == [own], "a delta of the adopted history's clients")
    }

    /// The store's own floor moves with its rows if it purged tombstones;
    /// otherwise the adopted one stands, and every adopted cursor from it
    /// gets a delta.
    @Test(arguments: [(SyncCounter(value: 3, floor: 2), SyncCounter(value: 12, floor: 11)),
                      (SyncCounter(value: 3, floor: 0), SyncCounter(value: 12, floor: 5))])
    func theStoresOwnFloorMovesOnlyIfItPurged(own: SyncCounter, adoptedCounter: SyncCounter) {
        var adoption = SyncAdoption(adopted, own: own)
        #expect(adoption.nextStep() == .moveOwnVersions(by: 9))
        #expect(adoption.nextStep() == .setCounter(adoptedCounter))
    }
}
