import CipherDB
import CipherSync
import Foundation
import Synchronization
import SyncEngine
import TestSupport
import Testing

/// The replicator against scripted answers (``AnsweringTransport``) and a
/// port where nothing listens: its back-off, its status when the server
/// cannot be reached, a refused change, the rows a server removes, and
/// `syncNow()`. Against the real server: `SyncReplicatorTests` of the
/// server's package.
@Suite struct SyncReplicatorTests {
    let notes: NotesDatabase

    init() throws {
        notes = try NotesDatabase()
    }

    /// An `HTTPTransport` that answers the request numbered `n` (from 0)
    /// as `answer` says, and counts the requests.
    final class AnsweringTransport: HTTPTransport {
        private let answer: @Sendable (HTTPRequest, Int) async throws -> HTTPResponse
        private let count = Mutex(0)

        init(_ answer: @escaping @Sendable (HTTPRequest, Int) async throws -> HTTPResponse) {
            self.answer = answer
        }

        var requests: Int { count.withLock { $0 } }

        func send(_ request: HTTPRequest) async throws -> HTTPResponse {
            let number = count.withLock { count in
                count += 1
                return count - 1
            }
            return try await answer(request, number)
        }
    }

    static let url = URL(string: "http://127.0.0.1:1")!

    func replicator(_ transport: any HTTPTransport, _ configuration: SyncReplicator.Configuration = .init()) -> SyncReplicator {
        SyncReplicator(notes.dbPool, schema: notes.schema, baseURL: Self.url, transport: transport, configuration: configuration)
    }

    static func page(_ request: HTTPRequest, kind: String, counter: Int64, rows: [String] = [], tombstones: [String] = []) -> HTTPResponse {
        let json = #"{"protocolVersion":1,"kind":"\#(kind)","complete":true,"cursor":"\#(ScriptedCursor.at(counter))","rows":["#
            + rows.joined(separator: ",") + #"],"tombstones":["# + tombstones.joined(separator: ",") + "]}"
        return HTTPResponse(status: 200, headers: ["content-type": "application/json"], body: Data(json.utf8), url: request.url)
    }

    static func notebook(_ id: UUID, version: Int) -> String {
        #"{"table":"notebook","id":"\#(id.uuidString)","version":\#(version),"values":{"name":"Work"}}"#
    }

    /// A busy server's `Retry-After` is waited at least, up to the
    /// configured limit; a failure without one doubles the back-off. The
    /// waits are recorded, not slept.
    @Test func aBusyServersRetryAfterIsWaitedAtLeastUpToTheLimit() async throws {
        let waits = Mutex<[Duration]>([])
        let transport = AnsweringTransport { request, number in
            func busy(_ seconds: String) -> HTTPResponse {
                HTTPResponse(status: 503, headers: ["retry-after": seconds], url: request.url)
            }
            switch number {
            case 0: return busy("7")
            case 1: return HTTPResponse(status: 500, url: request.url)
            case 2: return busy("3600")
            case 3: return busy("0")
            default:
                try await untilCancelled()
                throw CancellationError()
            }
        }
        let replicator = replicator(transport, .init(sleep: { duration in waits.withLock { $0.append(duration) } }))
        replicator.start()
        try await waitUntil("the fifth try") { transport.requests == 5 }
        await replicator.stop()
        // 7 s asked; 2 s doubled; an hour cut to the 600 s limit; 0 s
        // below the doubled 8 s.
        #expect(waits.withLock { $0 } == [.seconds(7), .seconds(2), .seconds(600), .seconds(8)])
        #expect(replicator.status.activity.kind == .idle)
    }

    /// Nothing listens: the status goes from connecting to offline with
    /// the wait before the next try; stopped, it is idle and the stream ends.
    @Test func aServerThatCannotBeReachedIsOfflineAndTriedAgain() async throws {
        let replicator = replicator(CurlTransport())
        let statuses = replicator.statuses()
        replicator.start()
        var seen: [SyncActivity.Kind] = []
        for await status in statuses {
            seen.append(status.activity.kind)
            if case .offline(let error) = status.activity {
                #expect(error == .connectionFailed)
                #expect(status.retryingIn == .seconds(1))
                #expect(!status.hasSynced)
                break
            }
        }
        await replicator.stop()
        #expect(seen == [.idle, .connecting, .offline])
        #expect(replicator.status.activity.kind == .idle)
    }

    /// The streams end when the replication ends: a loop over them stops.
    @Test func theStreamsEndWhenTheReplicatorStops() async throws {
        let replicator = replicator(CurlTransport())
        let (statuses, events) = (replicator.statuses(), replicator.events())
        replicator.start()
        await replicator.stop()
        var last: SyncActivity.Kind?
        for await status in statuses { last = status.activity.kind }
        for await _ in events {}
        #expect(last == .idle)
    }

    /// A row that SQL wrote around the declaration's rules: the sync fails
    /// before anything is sent, naming the row, and the events tell it.
    @Test func aRowThatBreaksTheDeclarationIsARefusedChangeAndNothingIsSent() async throws {
        let id = UUID()
        try notes.insertNote(id, notebook: UUID(), title: String(repeating: "x", count: 201))
        let transport = AnsweringTransport { request, _ in HTTPResponse(status: 500, url: request.url) }
        let replicator = replicator(transport)
        let events = replicator.events()
        do {
            _ = try await replicator.syncNow()
            Issue.record("the sync went through")
        } catch let failure as SyncFailure {
            guard case .changeRefused(let row, _) = failure else {
                Issue.record("\(failure)")
                return
            }
            #expect(row == SyncRowReference(table: "note", id: id))
        }
        #expect(replicator.status.activity.kind == .failed)
        await replicator.stop()
        var refused: [SyncRowReference] = []
        for await event in events {
            if case .changeRefused(let row, _) = event { refused.append(row) }
        }
        #expect(refused == [SyncRowReference(table: "note", id: id)])
        #expect(transport.requests == 0)
    }

    /// `syncNow()` without a replication running syncs once; a delta that
    /// deletes a synced row tells it as removed by the server.
    @Test func syncNowSyncsOnceAndTellsTheRowsTheServerRemoved() async throws {
        let (kept, removed) = (UUID(), UUID())
        let transport = AnsweringTransport { request, number in
            switch number {
            case 0: return Self.page(request, kind: "snapshot", counter: 2,
                                     rows: [Self.notebook(kept, version: 1), Self.notebook(removed, version: 2)])
            default: return Self.page(request, kind: "delta", counter: 3,
                                      tombstones: [#"{"table":"notebook","id":"\#(removed.uuidString)","version":3}"#])
            }
        }
        let replicator = replicator(transport)
        let events = replicator.events()
        let first = try await replicator.syncNow()
        #expect(first.pull.inserted == 2)
        #expect(replicator.status.activity.kind == .upToDate)
        #expect(replicator.status.hasSynced)
        let second = try await replicator.syncNow()
        #expect(second.pull.deleted == 1)
        // The streams last until stop(): syncNow() is no replication of its own.
        await replicator.stop()
        var removedRows: [SyncRowReference] = []
        var syncs = 0
        for await event in events {
            switch event {
            case .rowRemoved(let row): removedRows.append(row)
            case .synced: syncs += 1
            default: break
            }
        }
        #expect(removedRows == [SyncRowReference(table: "notebook", id: removed)])
        #expect(syncs == 2)
        #expect(transport.requests == 2)
    }
}
