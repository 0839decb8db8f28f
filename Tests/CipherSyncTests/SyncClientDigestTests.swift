import CipherSync
import Foundation
import SyncEngine
import SyncSchema
import Testing
import TestSupport

/// The server's digests at a cursor, as the client uses them: a store whose
/// synced data differs from them is repaired by a snapshot in the same
/// sync, which the report says with the digests of the table that differed;
/// a server whose snapshot does not match its own digests is an error.
@Suite struct SyncClientDigestTests {
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
        #expect(report.repaired == SyncDivergence(local: [MemorySyncStore.digest(of: ["a": 99, "b": 2])], server: [digest]))
        #expect(report.kind == .snapshot)
        #expect(report.cursorBefore == "5")
        #expect(report.cursorAfter == "6")
        #expect(report.pages == 2)
        #expect(transport.requests.map { $0.url.query ?? "" } == ["since=5", ""])
    }

    @Test func theJSONReportGivesTheDigestsOfEachSideAsTheProtocolWritesThem() async throws {
        let digest = MemorySyncStore.digest(of: Self.server)
        let transport = ScriptedTransport([
            .page(.delta(cursor: "6", ["b": 2], digest: digest)),
            .page(.snapshot(cursor: "6", Self.server, digest: digest)),
        ])
        let store = MemorySyncStore(items: ["a": 99], position: SyncClientPagingTests.stored(cursor: "5", etag: nil))
        let report = try await client(transport, store).sync()
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(report), as: UTF8.self)
        let local = MemorySyncStore.digest(of: ["a": 99, "b": 2])
        #expect(json.contains(#""repaired":{"local":[{"checksum":"\#(local.hexadecimalChecksum)","columns":["value"],"rows":2,"table":"item"}],"#
                              + #""server":[{"checksum":"\#(digest.hexadecimalChecksum)","columns":["value"],"rows":2,"table":"item"}]}"#), "\(json)")
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
        #expect(report.repaired?.local == [MemorySyncStore.digest(of: ["a": 1])])
        #expect(await store.items == Self.server)
    }

    @Test func aSnapshotThatDoesNotMatchItsOwnDigestIsAnError() async throws {
        // One item more than the server's items, of a hash none has.
        var lie = MemorySyncStore.digest(of: Self.server)
        lie.toggle(0xdead_beef)
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
        let transport = ScriptedTransport([.page(.delta(cursor: "6", ["b": 2], digest: MemorySyncStore.digest(of: ["z": 9])))])
        let store = MemorySyncStore(items: ["a": 1], position: SyncClientPagingTests.stored(cursor: "5", etag: nil))
        let report = try await client(transport, store).sync(dryRun: true)
        #expect(report.repaired == nil)
        #expect(transport.requests.count == 1)
    }
}
