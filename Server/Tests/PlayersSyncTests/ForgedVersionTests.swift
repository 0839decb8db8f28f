import CipherDB
import CipherSync
import Foundation
import Players
import PlayersSync
import SyncEngine
import TestSupport
import ServerTestSupport
import Testing

/// A server, or someone between it and the client, that sends versions
/// from beyond the server's history: the page is refused and nothing is
/// written; and a value that a tampered page left behind does not outlive
/// the next snapshot.
@Suite struct ForgedVersionTests {
    static let uuid = SyncFailureTests.BadServer.uuid

    /// A page of player `uuid`, as a server sends it.
    static func page(_ kind: String, cursor: String, next: String? = nil, name: String = "Arthur", score: Int = 10, version: Int64?) -> String {
        let rows = version.map { ScriptedPage.playerRow(uuid: uuid, name: name, score: score, version: Int($0)) } ?? ""
        let link = next.map { #""next":"\#($0)","# } ?? ""
        return #"{"protocolVersion":1,"kind":"\#(kind)","complete":\#(next == nil),"cursor":"\#(cursor)",\#(link)"rows":[\#(rows)],"tombstones":[]}"#
    }

    /// The path of the delta since `cursor`.
    static func deltaPath(since cursor: String) -> String {
        "/v1/sync/rows?tables=player&since=\(cursor)"
    }

    /// A server that answers its requests with `pages`, in turn.
    func server(_ pages: [String]) throws -> ScriptedHTTPServer {
        try ScriptedHTTPServer { _, number in
            number < pages.count ? .json(pages[number]) : .json(#"{"error":{"message":"no more pages"}}"#, status: 404)
        }
    }

    /// Syncs a snapshot of player `uuid` at version 3, cursor 30, from
    /// `server`'s first page, and returns the client and its content.
    func syncedClient(_ server: ScriptedHTTPServer) async throws -> (ClientDatabase, SyncClient<SyncEngineStore>, String) {
        let database = try ClientDatabase()
        let client = database.client(URL(string: server.baseURL)!)
        #expect(try await client.sync().counts == SyncCounts(inserted: 1))
        return (database, client, try database.contentChecksum())
    }

    /// Expects `sync` to refuse `page` with `message` at `path`, and the
    /// database's content to be as it was.
    func expectRefusal(_ client: SyncClient<SyncEngineStore>, _ database: ClientDatabase, content: String,
                       page: Int, path: String, message: String) async throws {
        do {
            _ = try await client.sync()
            Issue.record("the sync succeeded")
        } catch let error as SyncPayloadError {
            #expect(error == SyncPayloadError(page: page, path: path, message))
        }
        #expect(try database.contentChecksum() == content)
    }

    @Test func aDeltaPageThatRepeatsAnEarlierPagesVersionIsRefused() async throws {
        // The real change on one page, other values with its version on
        // the next: the first would have stayed for ever.
        let server = try server([
            Self.page("snapshot", cursor: ScriptedCursor.at(30), version: 3),
            Self.page("delta", cursor: ScriptedCursor.at(31), next: Self.deltaPath(since: ScriptedCursor.at(31)), name: "Poisoned", score: 424_242, version: 31),
            Self.page("delta", cursor: ScriptedCursor.at(31), score: 20, version: 31),
        ])
        defer { server.stop() }
        let (database, client, content) = try await syncedClient(server)
        try await expectRefusal(client, database, content: content, page: 2, path: "$.rows[0].version",
                                message: "31 is not after the cursor 31 that the page continues from")
    }

    @Test func aDeltaVersionNotAfterTheStoredCursorIsRefused() async throws {
        let server = try server([Self.page("snapshot", cursor: ScriptedCursor.at(30), version: 3), Self.page("delta", cursor: ScriptedCursor.at(31), version: 30)])
        defer { server.stop() }
        let (database, client, content) = try await syncedClient(server)
        try await expectRefusal(client, database, content: content, page: 1, path: "$.rows[0].version",
                                message: "30 is not after the cursor 30 that the page continues from")
        #expect(server.requests.last?.path == Self.deltaPath(since: ScriptedCursor.at(30)))
    }

    @Test func aDeltaVersionAboveItsPagesCursorIsRefused() async throws {
        let server = try server([Self.page("snapshot", cursor: ScriptedCursor.at(30), version: 3), Self.page("delta", cursor: ScriptedCursor.at(31), version: .max)])
        defer { server.stop() }
        let (database, client, content) = try await syncedClient(server)
        try await expectRefusal(client, database, content: content, page: 1, path: "$.rows[0].version",
                                message: "9223372036854775807 is above the page's cursor 31")
    }

    @Test func aDeltaCursorThatGoesBackIsRefused() async throws {
        let server = try server([
            Self.page("snapshot", cursor: ScriptedCursor.at(30), version: 3),
            Self.page("delta", cursor: ScriptedCursor.at(40), next: Self.deltaPath(since: ScriptedCursor.at(40)), version: 40),
            Self.page("delta", cursor: ScriptedCursor.at(35), version: nil),
        ])
        defer { server.stop() }
        let (database, client, content) = try await syncedClient(server)
        try await expectRefusal(client, database, content: content, page: 2, path: "$.cursor", message: "goes back, from 40 to 35")
    }

    @Test func aSnapshotReplacesAValueThatATamperedDeltaLeft() async throws {
        let server = try server([
            Self.page("snapshot", cursor: ScriptedCursor.at(30), version: 3),
            // Tampered on the way: the server's change 31 set the score to 20.
            Self.page("delta", cursor: ScriptedCursor.at(31), name: "Poisoned", score: 424_242, version: 31),
            // An honest delta cannot tell: nothing changed since.
            Self.page("delta", cursor: ScriptedCursor.at(31), version: nil),
            Self.page("snapshot", cursor: ScriptedCursor.at(31), score: 20, version: 31),
        ])
        defer { server.stop() }
        let (database, client, _) = try await syncedClient(server)
        _ = try await client.sync()
        _ = try await client.sync()
        #expect(try database.players().map { "\($0.name), \($0.score)" } == ["Poisoned, 424242"])
        let full = try await client.sync(full: true)
        #expect(full.counts == SyncCounts(updated: 1))
        #expect(try database.entries().map { "\($0.name), \($0.score), \($0.version ?? 0)" } == ["Arthur, 20, 31"])
    }

    @Test func aSnapshotLowersAForgedVersionSoThatLaterChangesApply() async throws {
        let server = try server([
            Self.page("snapshot", cursor: ScriptedCursor.at(30), version: 3),
            Self.page("snapshot", cursor: ScriptedCursor.at(31), version: 3),
            Self.page("delta", cursor: ScriptedCursor.at(32), name: "Zaphod", version: 32),
        ])
        defer { server.stop() }
        let queue = try DatabaseQueue()
        let appDatabase = try AppDatabase(queue)
        let client = appDatabase.syncClient(baseURL: URL(string: server.baseURL)!, transport: fastTransport())
        _ = try await client.sync()
        // As an older client's merge left it, which took any positive
        // version (its version moved to the engine's table).
        try await queue.write { db in
            try db.mergingSyncChanges {
                try db.execute(sql: "UPDATE player SET name = 'Poisoned'")
                try db.execute(sql: "UPDATE sync_row SET version = ?", arguments: [Int64.max])
            }
        }
        #expect(try await client.sync(full: true).counts == SyncCounts(updated: 1))
        #expect(try await client.sync().counts == SyncCounts(updated: 1))
        #expect(try entries(appDatabase).map { "\($0.name), \($0.version ?? 0)" } == ["Zaphod, 32"])
    }
}
