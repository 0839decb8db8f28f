import CipherSync
import Foundation
import SyncEngine
import Testing
import TestSupport

/// The sync client's paging, positions and limits, against a transport in
/// memory and a store in memory: what it asks for, what it refuses, and
/// what it hands to the store.
@Suite struct SyncClientPagingTests {
    static let endpoint = URL(string: "http://127.0.0.1:8080/v1/items")!

    /// A position stored by a previous sync of the endpoint.
    static func stored(cursor: String, etag: String? = nil) -> SyncPosition {
        SyncPosition(endpoint: endpoint.absoluteString, cursor: cursor, etag: etag)
    }

    func client(_ transport: ScriptedTransport, _ store: MemorySyncStore) -> SyncClient<MemorySyncStore> {
        SyncClient(transport: transport, endpoint: Self.endpoint, store: store)
    }

    // MARK: - Snapshots and deltas

    @Test func aSnapshotOfOnePageIsMergedWithItsCursor() async throws {
        let transport = ScriptedTransport([.page(.snapshot(cursor: "3", ["a": 1, "b": 2]))])
        let store = MemorySyncStore()
        let report = try await client(transport, store).sync()
        #expect(transport.paths == ["/v1/items"])
        #expect(report.kind == .snapshot && report.pages == 1 && report.inserted == 2)
        #expect(await store.items == ["a": 1, "b": 2])
        #expect(await store.position == Self.stored(cursor: "3"))
    }

    @Test func aSnapshotOfSeveralPagesIsFollowedByTheDeltaSinceItsCursor() async throws {
        let transport = ScriptedTransport([
            .page(.snapshot(cursor: "7", next: "/v1/items?after=a", ["a": 1])),
            .page(.snapshot(cursor: "7", ["b": 2])),
            .page(.delta(cursor: "8", ["a": 10])),
        ])
        let store = MemorySyncStore()
        let report = try await client(transport, store).sync()
        #expect(transport.paths == ["/v1/items", "/v1/items?after=a", "/v1/items?since=7"])
        let fetch = try #require(await store.merges.first?.fetch)
        #expect(fetch.kind == .snapshot && fetch.pages.count == 2 && fetch.catchUp.count == 1)
        #expect(report.pages == 3 && report.cursorAfter == "8")
        #expect(await store.items == ["a": 10, "b": 2])
        #expect(await store.position.cursor == "8")
    }

    @Test func aStoredCursorAsksForTheDeltaSinceIt() async throws {
        let transport = ScriptedTransport([.page(.delta(cursor: "6", ["a": 2]))])
        let store = MemorySyncStore(items: ["a": 1], position: Self.stored(cursor: "5"))
        let report = try await client(transport, store).sync()
        #expect(transport.paths == ["/v1/items?since=5"])
        #expect(report.kind == .delta && report.updated == 1 && report.cursorBefore == "5" && report.cursorAfter == "6")
        #expect(await store.position.cursor == "6")
    }

    /// `players sync --watch`: the server may hold the first request of
    /// the delta for the whole wait, and the transport counts its stall
    /// limit after it; the pages after it are answered at once.
    @Test func aLongPollTellsTheTransportThatTheServerHoldsItsFirstRequest() async throws {
        let transport = ScriptedTransport([
            .page(.delta(cursor: "6", next: "/v1/items?since=5&after=a", ["a": 2])),
            .page(.delta(cursor: "6", ["b": 3])),
        ])
        var client = client(transport, MemorySyncStore(items: ["a": 1], position: Self.stored(cursor: "5")))
        client.waitSeconds = 50
        _ = try await client.sync()
        #expect(transport.paths == ["/v1/items?since=5&wait=50", "/v1/items?since=5&after=a"])
        #expect(transport.requests.map(\.serverHold) == [50, 0])
    }

    /// A local change to push ends the held request: the transfer is
    /// abandoned, nothing merged, the cursor kept.
    @Test func aLocalChangeEndsTheLongPollAndNothingIsMerged() async throws {
        let transport = ScriptedTransport([.stall])
        let store = MemorySyncStore(items: ["a": 1], position: Self.stored(cursor: "5"))
        var client = client(transport, store)
        client.waitSeconds = 50
        client.localChangeToPush = {
            // Once the held request is under way.
            while transport.requests.isEmpty { await Task.yield() }
        }
        let report = try await client.sync()
        #expect(report.upToDate && report.cursorAfter == "5" && report.pages == 0)
        #expect(await store.merges.isEmpty)
        #expect(await store.position.cursor == "5")
    }

    /// The server's answer first: the local change waits for the next sync.
    @Test func theServersAnswerBeforeALocalChangeIsMerged() async throws {
        let transport = ScriptedTransport([.page(.delta(cursor: "6", ["b": 3]))])
        let store = MemorySyncStore(items: ["a": 1], position: Self.stored(cursor: "5"))
        var client = client(transport, store)
        client.waitSeconds = 50
        client.localChangeToPush = { try await untilCancelled() }
        let report = try await client.sync()
        #expect(report.inserted == 1 && report.cursorAfter == "6")
    }

    /// Only a long-poll waits for a local change: a sync without a wait
    /// never asks.
    @Test func aSyncWithoutAWaitIsNotEndedByALocalChange() async throws {
        let transport = ScriptedTransport([.page(.delta(cursor: "6", ["b": 3]))])
        var client = client(transport, MemorySyncStore(items: ["a": 1], position: Self.stored(cursor: "5")))
        client.localChangeToPush = {}
        #expect(try await client.sync().cursorAfter == "6")
    }

    @Test func theStoredETagIsSentAndNotModifiedIsUpToDate() async throws {
        let transport = ScriptedTransport([.status(304)])
        let store = MemorySyncStore(position: Self.stored(cursor: "5", etag: #""v5""#))
        let report = try await client(transport, store).sync()
        #expect(transport.requests.map { $0.headers["If-None-Match"] } == [#""v5""#])
        #expect(report.upToDate && report.kind == .delta && report.cursorAfter == "5")
        #expect(await store.merges.isEmpty)
    }

    @Test func theETagOfADeltaThatKeepsTheCursorIsStored() async throws {
        let transport = ScriptedTransport([.page(.delta(cursor: "5"), etag: #""v5""#)])
        let store = MemorySyncStore(position: Self.stored(cursor: "5"))
        _ = try await client(transport, store).sync()
        #expect(await store.position == Self.stored(cursor: "5", etag: #""v5""#))
    }

    @Test func theETagOfADeltaThatMovesTheCursorIsNotStored() async throws {
        let transport = ScriptedTransport([.page(.delta(cursor: "6", ["a": 1]), etag: #""v5""#)])
        let store = MemorySyncStore(position: Self.stored(cursor: "5"))
        _ = try await client(transport, store).sync()
        #expect(await store.position == Self.stored(cursor: "6"))
    }

    @Test func goneTakesASnapshot() async throws {
        let transport = ScriptedTransport([.status(410), .page(.snapshot(cursor: "9", ["a": 1]))])
        let store = MemorySyncStore(position: Self.stored(cursor: "5"))
        let report = try await client(transport, store).sync()
        #expect(transport.paths == ["/v1/items?since=5", "/v1/items"])
        #expect(report.kind == .snapshot && report.cursorAfter == "9")
    }

    @Test func aCursorFromAnotherEndpointTakesASnapshot() async throws {
        let transport = ScriptedTransport([.page(.snapshot(cursor: "9"))])
        let store = MemorySyncStore(position: SyncPosition(endpoint: "http://127.0.0.1:8081/v1/items", cursor: "5"))
        let report = try await client(transport, store).sync()
        #expect(transport.paths == ["/v1/items"])
        #expect(report.kind == .snapshot && report.cursorBefore == nil)
        #expect(await store.position == Self.stored(cursor: "9"))
    }

    @Test func aStoredCursorLongerThanTheLimitTakesASnapshot() async throws {
        let transport = ScriptedTransport([.page(.snapshot(cursor: "9"))])
        let store = MemorySyncStore(position: Self.stored(cursor: String(repeating: "7", count: 17)))
        var client = client(transport, store)
        client.maximumCursorLength = 16
        _ = try await client.sync()
        #expect(transport.paths == ["/v1/items"])
    }

    @Test func fullTakesASnapshotDespiteAStoredCursor() async throws {
        let transport = ScriptedTransport([.page(.snapshot(cursor: "9"))])
        let store = MemorySyncStore(position: Self.stored(cursor: "5"))
        _ = try await client(transport, store).sync(full: true)
        #expect(transport.paths == ["/v1/items"])
    }

    // MARK: - Links

    @Test func aNextLinkBackToAnEarlierPageIsRefused() async throws {
        let transport = ScriptedTransport { request, _ in
            switch request.url.query {
            case nil: .page(.snapshot(cursor: "7", next: "?after=a"))
            case "after=a": .page(.snapshot(cursor: "7", next: "?after=b"))
            case "after=b": .page(.snapshot(cursor: "7", next: "?after=a"))
            default: nil
            }
        }
        let store = MemorySyncStore()
        await #expect(throws: SyncPayloadError(page: 3, path: "$.next", "leads back to an earlier page")) {
            try await client(transport, store).sync()
        }
        #expect(transport.requests.count == 3)
        #expect(await store.merges.isEmpty)
    }

    @Test func aNextLinkToAnotherServerIsRefused() async throws {
        let transport = ScriptedTransport([.page(.snapshot(cursor: "7", next: "http://127.0.0.2:8080/v1/items?after=a"))])
        let store = MemorySyncStore()
        await #expect(throws: SyncPayloadError(page: 1, path: "$.next", "not a link on the same server")) {
            try await client(transport, store).sync()
        }
        #expect(transport.requests.count == 1)
    }

    @Test func anIncompletePageWithoutANextLinkIsRefused() async throws {
        let page = TestPage(kind: "snapshot", cursor: "7", complete: false, next: nil, items: [:])
        let transport = ScriptedTransport([.page(page)])
        await #expect(throws: SyncPayloadError(page: 1, path: "$.next", "missing on a page that is not complete")) {
            try await client(transport, MemorySyncStore()).sync()
        }
    }

    // MARK: - Pages the protocol refuses

    @Test func aDeltaPageForASnapshotIsRefused() async throws {
        let transport = ScriptedTransport([.page(.delta(cursor: "7"))])
        await #expect(throws: SyncPayloadError(page: 1, path: "$.kind", "expected snapshot")) {
            try await client(transport, MemorySyncStore()).sync()
        }
    }

    @Test func aSnapshotPageForADeltaIsRefused() async throws {
        let transport = ScriptedTransport([.page(.snapshot(cursor: "7"))])
        let store = MemorySyncStore(position: Self.stored(cursor: "5"))
        await #expect(throws: SyncPayloadError(page: 1, path: "$.kind", "expected delta")) {
            try await client(transport, store).sync()
        }
    }

    @Test func aPageWithoutACursorIsRefused() async throws {
        let transport = ScriptedTransport([.page(.snapshot(cursor: nil))])
        await #expect(throws: SyncPayloadError(page: 1, path: "$.cursor", "missing")) {
            try await client(transport, MemorySyncStore()).sync()
        }
    }

    @Test func aCursorLongerThanTheLimitIsRefused() async throws {
        let transport = ScriptedTransport([.page(.snapshot(cursor: String(repeating: "7", count: 17)))])
        var client = client(transport, MemorySyncStore())
        client.maximumCursorLength = 16
        await #expect(throws: SyncPayloadError(page: 1, path: "$.cursor", "longer than 16 bytes")) {
            try await client.sync()
        }
    }

    @Test func aSnapshotWhoseCursorChangesBetweenPagesIsRefused() async throws {
        let transport = ScriptedTransport([
            .page(.snapshot(cursor: "7", next: "?after=a")),
            .page(.snapshot(cursor: "8")),
        ])
        let store = MemorySyncStore()
        await #expect(throws: SyncPayloadError(page: 2, path: "$.cursor", "differs from the first page's")) {
            try await client(transport, store).sync()
        }
        #expect(await store.merges.isEmpty)
    }

    @Test func theDecodersErrorNamesItsPage() async throws {
        let transport = ScriptedTransport([
            .page(.snapshot(cursor: "7", next: "?after=a")),
            .body(Data("[".utf8)),
        ])
        await #expect(throws: SyncPayloadError(page: 2, path: "$", "not a page")) {
            try await client(transport, MemorySyncStore()).sync()
        }
    }

    // MARK: - Limits

    @Test func morePagesThanTheLimitAreTooLarge() async throws {
        let transport = ScriptedTransport { _, number in
            .page(.snapshot(cursor: "7", next: "?page=\(number + 2)"))
        }
        let store = MemorySyncStore()
        var client = client(transport, store)
        client.maximumPages = 3
        let error = await #expect(throws: SyncError.tooLarge) { try await client.sync() }
        #expect(error?.detail == "more than 3 pages")
        #expect(transport.requests.count == 3)
        #expect(await store.merges.isEmpty)
    }

    @Test func thePageLimitCountsTheCatchUpDelta() async throws {
        let transport = ScriptedTransport([
            .page(.snapshot(cursor: "7", next: "?after=a")),
            .page(.snapshot(cursor: "7")),
            .page(.delta(cursor: "8")),
        ])
        var client = client(transport, MemorySyncStore())
        client.maximumPages = 2
        await #expect(throws: SyncError.tooLarge) { try await client.sync() }
        #expect(transport.requests.count == 2)
    }

    @Test func moreBytesThanTheLimitAreTooLarge() async throws {
        // Pages of the same size: page 2 links to page 3, and so on.
        @Sendable func page(_ number: Int) -> TestPage { .snapshot(cursor: "7", next: "?page=\(number + 1)", ["a": number]) }
        let pageSize = try JSONEncoder().encode(page(1)).count
        let transport = ScriptedTransport { _, number in number < 9 ? .page(page(number + 1)) : nil }
        let store = MemorySyncStore()
        var client = client(transport, store)
        client.maximumBytes = 2 * pageSize + 1
        let error = await #expect(throws: SyncError.tooLarge) { try await client.sync() }
        #expect(error?.detail == "more than \(2 * pageSize + 1) bytes at page 3")
        #expect(await store.merges.isEmpty)
    }

    /// The second page never comes: the deadline, on a clock the test
    /// advances once that page is asked for, ends the sync, and the
    /// request under way, which only a cancellation ends, is cancelled.
    @Test(.hangGuard) func aFetchThatOutlastsTheDeadlineIsAbandoned() async throws {
        let transport = ScriptedTransport([.page(.snapshot(cursor: "7", next: "?after=a")), .stall])
        let store = MemorySyncStore()
        let clock = ManualClock()
        var client = client(transport, store)
        client.maximumDuration = 0.2
        client.clock = clock
        let sync = Task { try await client.sync() }
        try await waitUntil("the second page is asked for") { transport.requests.count == 2 }
        try await clock.waitForSleepers(1)
        #expect(clock.sleeperDeadlines == [ManualClock.Instant(offset: .milliseconds(200))])
        clock.advance(by: .milliseconds(200))
        await #expect(throws: SyncError.deadlineExceeded) { try await sync.value }
        #expect(transport.requests.count == 2)
        #expect(await store.merges.isEmpty)
    }

    /// A long-poll's wait is added to the deadline: the server may rightly
    /// hold the request that long.
    @Test(.hangGuard) func aLongPollsWaitComesBeforeTheDeadline() async throws {
        let transport = ScriptedTransport([.stall])
        let clock = ManualClock()
        var client = client(transport, MemorySyncStore(position: Self.stored(cursor: "5")))
        client.maximumDuration = 1
        client.waitSeconds = 50
        client.clock = clock
        let sync = Task { try await client.sync() }
        try await waitUntil("the long-poll is sent") { transport.requests.count == 1 }
        try await clock.waitForSleepers(1)
        #expect(clock.sleeperDeadlines == [ManualClock.Instant(offset: .seconds(51))])
        clock.advance(by: .seconds(51))
        await #expect(throws: SyncError.deadlineExceeded) { try await sync.value }
    }

    // MARK: - The store

    @Test func aDryRunWritesNothing() async throws {
        let transport = ScriptedTransport([.page(.delta(cursor: "6", ["a": 2, "b": 1]))])
        let store = MemorySyncStore(items: ["a": 1], position: Self.stored(cursor: "5"))
        let report = try await client(transport, store).sync(dryRun: true)
        // The cursor the merge would store, although nothing is stored.
        #expect(report.dryRun && report.inserted == 1 && report.updated == 1 && report.cursorAfter == "6")
        #expect(await store.items == ["a": 1])
        #expect(await store.position == Self.stored(cursor: "5"))
    }

    @Test func aFailedMergeEndsTheSyncWithItsErrorAndThePositionUnchanged() async throws {
        struct MergeFailure: Error, Equatable {}
        let transport = ScriptedTransport([.page(.delta(cursor: "6", ["a": 2]))])
        let store = MemorySyncStore(items: ["a": 1], position: Self.stored(cursor: "5"), mergeError: MergeFailure())
        await #expect(throws: MergeFailure()) { try await client(transport, store).sync() }
        #expect(await store.merges.count == 1)
        #expect(await store.position == Self.stored(cursor: "5"))
        #expect(await store.items == ["a": 1])
    }
}
