import CipherSync
import Foundation
import SyncEngine
import Testing
import TestSupport

/// The server's digest at a cursor: a store whose synced data differs from
/// it is repaired by a snapshot in the same sync, which the report says;
/// a server whose snapshot does not match its own digest is an error.
@Suite struct SyncDigestTests {
    func client(_ transport: ScriptedTransport, _ store: MemorySyncStore) -> SyncClient<MemorySyncStore> {
        SyncClient(transport: transport, endpoint: SyncClientPagingTests.endpoint, store: store)
    }

    static let server = ["a": 1, "b": 2]

    @Test func aStoreThatMatchesTheDigestTakesNoSnapshot() async throws {
        let transport = ScriptedTransport([.page(.delta(cursor: "6", ["b": 2], digest: MemorySyncStore.digest(of: Self.server)))])
        let store = MemorySyncStore(items: ["a": 1], position: SyncClientPagingTests.stored(cursor: "5", etag: nil))
        let report = try await client(transport, store).sync()
        #expect(report.repaired == nil)
        #expect(report.kind == .delta)
        #expect(transport.requests.count == 1)
    }

    @Test func aStoreChangedBehindTheSyncsBackIsRepairedByASnapshot() async throws {
        let digest = MemorySyncStore.digest(of: Self.server)
        let transport = ScriptedTransport([
            .page(.delta(cursor: "6", ["b": 2], digest: digest)),
            .page(.snapshot(cursor: "6", Self.server, digest: digest)),
        ])
        let store = MemorySyncStore(items: ["a": 1], position: SyncClientPagingTests.stored(cursor: "5", etag: nil))
        await store.corrupt("a", 99)
        let report = try await client(transport, store).sync()
        #expect(await store.items == Self.server)
        #expect(report.repaired == SyncDivergence(local: MemorySyncStore.digest(of: ["a": 99, "b": 2]), server: digest))
        #expect(report.kind == .snapshot)
        #expect(report.cursorBefore == "5")
        #expect(report.cursorAfter == "6")
        #expect(report.pages == 2)
        #expect(transport.requests.map { $0.url.query ?? "" } == ["since=5", ""])
    }

    @Test func anAnswer304ComparesTheStoredDigest() async throws {
        let digest = MemorySyncStore.digest(of: Self.server)
        let transport = ScriptedTransport([
            .page(.delta(cursor: "6", digest: digest), etag: #""v6""#),
            .status(304),
            .page(.snapshot(cursor: "6", Self.server, digest: digest)),
        ])
        let store = MemorySyncStore(items: Self.server, position: SyncClientPagingTests.stored(cursor: "6", etag: nil))
        let client = client(transport, store)
        #expect(try await client.sync().repaired == nil)
        await store.corrupt("b", nil)
        let report = try await client.sync()
        #expect(transport.requests[1].headers["If-None-Match"] == #""v6""#)
        #expect(report.repaired?.local == MemorySyncStore.digest(of: ["a": 1]))
        #expect(await store.items == Self.server)
    }

    @Test func aSnapshotThatDoesNotMatchItsOwnDigestIsAnError() async throws {
        let lie = SyncDigest(count: 3, checksum: "never")
        let transport = ScriptedTransport([
            .page(.delta(cursor: "6", ["b": 2], digest: lie)),
            .page(.snapshot(cursor: "6", Self.server, digest: lie)),
        ])
        let store = MemorySyncStore(items: ["a": 1], position: SyncClientPagingTests.stored(cursor: "5", etag: nil))
        await #expect(throws: SyncError.inconsistentServer) {
            try await client(transport, store).sync()
        }
        #expect(transport.requests.count == 2)
    }

    @Test func aDryRunComparesNothing() async throws {
        let transport = ScriptedTransport([.page(.delta(cursor: "6", ["b": 2], digest: SyncDigest(count: 9, checksum: "other")))])
        let store = MemorySyncStore(items: ["a": 1], position: SyncClientPagingTests.stored(cursor: "5", etag: nil))
        let report = try await client(transport, store).sync(dryRun: true)
        #expect(report.repaired == nil)
        #expect(transport.requests.count == 1)
    }
}
