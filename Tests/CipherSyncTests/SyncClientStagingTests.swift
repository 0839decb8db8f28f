import CipherSync
import Foundation
import TestSupport
import Testing

/// How the sync client hands pages to its store: each page staged as it
/// arrives, with its number, and the staging discarded however the sync
/// ends.
@Suite struct SyncClientStagingTests {
    func client(_ transport: ScriptedTransport, _ store: MemorySyncStore) -> SyncClient<MemorySyncStore> {
        SyncClient(transport: transport, endpoint: SyncClientPagingTests.endpoint, store: store)
    }

    @Test func eachPageIsStagedWithItsNumberAndTheCatchUpDeltaIsMarked() async throws {
        let transport = ScriptedTransport([
            .page(.snapshot(cursor: "7", next: "?after=a", ["a": 1])),
            .page(.snapshot(cursor: "7", ["b": 2])),
            .page(.delta(cursor: "8", ["a": 10])),
        ])
        let store = MemorySyncStore()
        _ = try await client(transport, store).sync()
        #expect(await store.staged.map(\.number) == [1, 2, 3])
        #expect(await store.staged.map(\.isCatchUp) == [false, false, true])
    }

    @Test func thePagesBeforeABadPageAreStagedThenDiscarded() async throws {
        let transport = ScriptedTransport([
            .page(.snapshot(cursor: "7", next: "?after=a", ["a": 1])),
            .page(.snapshot(cursor: "7", next: "?after=b", ["b": 2])),
            .body(Data("[".utf8)),
        ])
        let store = MemorySyncStore()
        await #expect(throws: SyncPayloadError(page: 3, path: "$", "not a page")) {
            try await client(transport, store).sync()
        }
        #expect(await store.staged.map(\.number) == [1, 2])
        #expect(await store.merges.isEmpty)
        #expect(await store.stagingsDiscarded == 1)
    }

    /// How a sync ends.
    enum Ending: String, CaseIterable, Sendable {
        case merged, upToDate, failedPage, failedMerge, deadline
    }

    @Test(.hangGuard, arguments: Ending.allCases)
    func theStagingIsDiscardedOnceHoweverTheSyncEnds(_ ending: Ending) async throws {
        struct MergeFailure: Error {}
        let answers: [ScriptedTransport.Answer] = switch ending {
        case .merged, .failedMerge: [.page(.delta(cursor: "6", ["a": 2]))]
        case .upToDate: [.status(304)]
        case .failedPage: [.page(.delta(cursor: "6", next: "?page=2", ["a": 2])), .page(.delta(cursor: nil))]
        case .deadline: [.page(.delta(cursor: "6", next: "?page=2", ["a": 2])), .stall]
        }
        let store = MemorySyncStore(items: ["a": 1], position: SyncClientPagingTests.stored(cursor: "5", etag: #""v5""#),
                                    mergeError: ending == .failedMerge ? MergeFailure() : nil)
        let transport = ScriptedTransport(answers)
        // The deadline passes when the test says: only for `.deadline`,
        // once its second page is under way.
        let clock = ManualClock()
        var client = client(transport, store)
        client.maximumDuration = 0.5
        client.clock = clock
        let sync = Task { try await client.sync() }
        if ending == .deadline {
            try await waitUntil("the second page is asked for") { transport.requests.count == 2 }
            try await clock.waitForSleepers(1)
            clock.advance(by: .milliseconds(500))
        }
        let succeeded: Bool
        do {
            _ = try await sync.value
            succeeded = true
        } catch {
            succeeded = false
        }
        #expect(succeeded == [.merged, .upToDate].contains(ending))
        // An answer with no page (304) begins none.
        let stagings = ending == .upToDate ? 0 : 1
        #expect(await store.stagingsBegun == stagings)
        #expect(await store.stagingsDiscarded == stagings)
    }
}
