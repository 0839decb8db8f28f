import Foundation
import Hummingbird
import NIOCore
import NIOFoundationCompat
import PlayersShared
import ServerTestSupport
import SyncSchema
import SyncServer
import TestSupport
import Testing

/// The sync engine's endpoints over HTTP, on both stores: a push answered
/// change by change, snapshot and delta pages that a device's declaration
/// reads, and the refusals that change nothing.
@Suite struct SyncEndpointTests {
    static let json: HTTPFields = [.contentType: "application/json"]
    let schema = SyncSchema.testNotes
    let work = UUID(), groceries = UUID()

    func push(_ client: APIClient, _ changes: [SyncChange], server: UUID? = nil) async throws -> APIResponse {
        try await client.execute(uri: "/v1/sync/changes", method: .post, headers: Self.json,
                                 body: ByteBuffer(data: SyncChangeBatch(changes: changes, server: server).jsonData()))
    }

    func results(_ response: APIResponse, answering changes: [SyncChange]) throws -> [SyncPushResult] {
        #expect(response.status == .ok, "\(String(buffer: response.body))")
        return try SyncChangeResults.decode(Data(buffer: response.body), answering: changes, schema: schema).results
    }

    func page(_ client: APIClient, _ uri: String) async throws -> SyncPage {
        let response = try await client.execute(uri: uri, method: .get)
        #expect(response.status == .ok, "\(String(buffer: response.body))")
        return try SyncPage.decode(Data(buffer: response.body), schema: schema)
    }

    func upsert(_ table: String, _ id: UUID, _ values: [String: SyncValue], base: Int64? = nil) throws -> SyncChange {
        SyncChange(mutationID: UUID(), operation: .upsert,
                   row: try schema.table(table)!.row(id: id, values: values, carrying: .changed), baseVersion: base)
    }

    /// Pushes a notebook "Work" (1) and its note "Groceries" (2).
    func notebookWithANote(_ client: APIClient) async throws {
        let changes = [
            try upsert("notebook", work, ["name": .text("Work")]),
            try upsert("note", groceries, ["notebook": .uuid(work), "title": .text("Groceries")]),
        ]
        #expect(try results(try await push(client, changes), answering: changes).map(\.version) == [1, 2])
    }

    @Test(arguments: StoreKind.allCases)
    func aPushedRowComesBackInTheSnapshotAndItsChangesInTheDelta(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind, schema: schema) { server in
            try await notebookWithANote(server.client)
            let snapshot = try await page(server.client, "/v1/sync/rows")
            #expect(snapshot.kind == .snapshot && snapshot.isComplete)
            #expect(snapshot.rows.map(\.version).sorted() == [1, 2])
            #expect(snapshot.epochs == server.engine.history.epochs)

            let edit = try upsert("note", groceries, ["body": .text("Milk")], base: 2)
            #expect(try results(try await push(server.client, [edit]), answering: [edit]).map(\.status) == [.applied])
            let delta = try await page(server.client, "/v1/sync/rows?since=\(snapshot.cursor)")
            #expect(delta.kind == .delta && delta.isComplete)
            #expect(delta.rows.map(\.row.values) == [["notebook": .uuid(work), "title": .text("Groceries"), "body": .text("Milk")]])

            let delete = SyncChange(mutationID: UUID(), operation: .delete,
                                    row: try schema.table("notebook")!.row(id: work, values: [:], carrying: .changed), baseVersion: 1)
            _ = try results(try await push(server.client, [delete]), answering: [delete])
            let cascade = try await page(server.client, "/v1/sync/rows?since=\(delta.cursor)")
            #expect(cascade.tombstones.map(\.id) == [work, groceries], "the note's delete reaches the device too")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func snapshotPagesCarryTheirFirstCursorAndLinkTheNext(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind, schema: schema) { server in
            try await notebookWithANote(server.client)
            let first = try await page(server.client, "/v1/sync/rows?limit=1")
            #expect(!first.isComplete)
            let next = try #require(first.next)
            // A change between the pages: the later page leaves it out,
            // the delta after the snapshot's cursor brings it.
            let edit = try upsert("notebook", work, ["name": .text("Office")], base: 1)
            _ = try results(try await push(server.client, [edit]), answering: [edit])
            let second = try await page(server.client, next)
            #expect(second.cursor == first.cursor)
            #expect(second.isComplete)
            #expect((first.rows + second.rows).count == 1)
            let catchUp = try await page(server.client, "/v1/sync/rows?since=\(first.cursor)")
            #expect(catchUp.rows.map(\.row.values) == [["name": .text("Office")]])
            // The digests are the store's at its counter: not the
            // snapshot's cursor's any longer, so only the delta has them.
            #expect(first.digests == nil && second.digests == nil)
            #expect(catchUp.digests?.first { $0.table == "notebook" }?.rows == 1)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func theLastPageCarriesTheDigestOfEachTablesRowsAtItsCursor(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind, schema: schema) { server in
            try await notebookWithANote(server.client)
            let snapshot = try await page(server.client, "/v1/sync/rows")
            let hasher = SyncRowHasher()
            var expected = schema.tables.map { SyncTableDigest(table: $0) }.sorted { $0.table < $1.table }
            for row in snapshot.rows {
                let table = schema.table(row.row.table)!
                let index = expected.firstIndex { $0.table == table.name }!
                expected[index].toggle(hasher.hash(table, id: row.row.id, version: row.version, values: row.row.values))
            }
            #expect(snapshot.digests == expected)
            #expect(expected.map(\.rows) == [0, 1, 1, 0, 0])
            let delta = try await page(server.client, "/v1/sync/rows?since=\(snapshot.cursor)")
            #expect(delta.rows.isEmpty && delta.digests == expected)
        }
    }

    /// `tables=`: a device's tables alone, in the snapshot's pages (and
    /// their `next` links), in the delta, and in the digests.
    @Test(arguments: StoreKind.allCases)
    func aRequestForSomeTablesGetsTheirRowsAndDigestsAlone(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind, schema: schema) { server in
            try await notebookWithANote(server.client)
            let first = try await page(server.client, "/v1/sync/rows?limit=1&tables=notebook")
            #expect(first.isComplete && first.rows.map(\.row.id) == [work])
            #expect(first.digests?.map(\.table) == ["notebook"])
            let both = try await page(server.client, "/v1/sync/rows?limit=1&tables=notebook,note")
            let rest = try await page(server.client, try #require(both.next))
            #expect((both.rows + rest.rows).map(\.row.table) == ["note", "notebook"])

            let edit = try upsert("note", groceries, ["body": .text("Milk")], base: 2)
            _ = try results(try await push(server.client, [edit]), answering: [edit])
            let notebooks = try await page(server.client, "/v1/sync/rows?since=\(first.cursor)&tables=notebook")
            #expect(notebooks.rows.isEmpty && notebooks.isComplete)
            #expect(notebooks.cursor != first.cursor, "the cursor moves past the other tables' changes")
            let notes = try await page(server.client, "/v1/sync/rows?since=\(first.cursor)&tables=note")
            #expect(notes.rows.map(\.row.id) == [groceries])
        }
    }

    @Test func aRequestForATableTheServerDoesNotSyncIsRefused() async throws {
        try await APITestServer.with(.embedded, schema: schema) { server in
            for (query, message) in [("tables=tag", "'tables' names \"tag\", which is not a table this server syncs"),
                                     ("tables=", "'tables' must name at least one table"),
                                     ("since=0&tables=note,,", "'tables' names \"\", which is not")] {
                let response = try await server.client.execute(uri: "/v1/sync/rows?\(query)", method: .get)
                #expect(response.status == .badRequest, "\(query)")
                let body = try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: [String: String]]
                #expect(body?["error"]?["message"]?.contains(message) == true, "\(query): \(String(buffer: response.body))")
            }
        }
    }

    /// Requests of other tables for the same delta at once never share
    /// its read: each gets its own tables' rows.
    @Test func deltasOfOtherTablesAreReadApart() async throws {
        try await APITestServer.with(.embedded, schema: schema) { server in
            try await notebookWithANote(server.client)
            let cursor = server.engine.history.cursor(at: 0)
            async let notebooks = page(server.client, "/v1/sync/rows?since=\(cursor)&tables=notebook")
            async let notes = page(server.client, "/v1/sync/rows?since=\(cursor)&tables=note")
            let (a, b) = try await (notebooks, notes)
            #expect(a.rows.map(\.row.table) == ["notebook"] && b.rows.map(\.row.table) == ["note"])
        }
    }

    /// A page's ETag: the same request with it as `If-None-Match` is 304
    /// with no body while nothing changed, and 200 with another tag once
    /// something did.
    @Test(arguments: StoreKind.allCases)
    func aPageIsNotModifiedForItsETagUntilSomethingChanges(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind, schema: schema) { server in
            try await notebookWithANote(server.client)
            let snapshot = try await server.client.execute(uri: "/v1/sync/rows", method: .get)
            let snapshotTag = try #require(snapshot.headers[.eTag])
            let cursor = try SyncPage.decode(Data(buffer: snapshot.body), schema: schema).cursor
            let again = try await server.client.execute(uri: "/v1/sync/rows", method: .get, headers: [.ifNoneMatch: snapshotTag])
            #expect(again.status == .notModified)
            #expect(again.body.readableBytes == 0)

            let uri = "/v1/sync/rows?since=\(cursor)"
            let delta = try await server.client.execute(uri: uri, method: .get)
            let deltaTag = try #require(delta.headers[.eTag])
            #expect(deltaTag != snapshotTag)
            #expect(try await server.client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: deltaTag]).status == .notModified)

            let edit = try upsert("notebook", work, ["name": .text("Office")], base: 1)
            _ = try results(try await push(server.client, [edit]), answering: [edit])
            let changed = try await server.client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: deltaTag])
            #expect(changed.status == .ok)
            #expect(changed.headers[.eTag] != deltaTag)
            #expect(try SyncPage.decode(Data(buffer: changed.body), schema: schema).rows.map(\.row.id) == [work])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aBatchTheDeclarationRefusesIs400AndChangesNothing(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind, schema: schema) { server in
            let body = #"{"protocolVersion":1,"changes":[{"mutationID":"\#(UUID().uuidString)","table":"tag","id":"\#(UUID().uuidString)","operation":"upsert","values":{}}]}"#
            let response = try await server.client.execute(uri: "/v1/sync/changes", method: .post, headers: Self.json,
                                                           body: ByteBuffer(string: body))
            #expect(response.status == .badRequest)
            #expect(String(buffer: response.body).contains("tag is not a table this server syncs"))
            #expect(try await server.engine.currentVersion() == 0)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aBatchForAnotherServerIs412(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind, schema: schema) { server in
            let response = try await push(server.client, [try upsert("notebook", work, ["name": .text("Work")])], server: UUID())
            #expect(response.status == .preconditionFailed)
            #expect(try await server.engine.currentVersion() == 0)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aCursorOfAnotherServerIs410WithTheSnapshotToTake(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind, schema: schema) { server in
            let other = SyncCursor(counter: 0, epoch: SyncCursor.newEpoch(), server: UUID())
            let response = try await server.client.execute(uri: "/v1/sync/rows?since=\(other)", method: .get)
            #expect(response.status == .gone)
            #expect(String(buffer: response.body).contains(#""snapshot":"\/v1\/sync\/rows""#)
                    || String(buffer: response.body).contains(#""snapshot":"/v1/sync/rows""#))
        }
    }

    /// Players are rows of the engine: without a declaration, its
    /// endpoints serve them, and a player pushed through them is one of
    /// the store's players.
    @Test(arguments: StoreKind.allCases)
    func withoutADeclarationTheEngineServesThePlayers(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind) { server in
            let arthur = try await server.store.insert(name: "Arthur", score: 42)
            let response = try await server.client.execute(uri: "/v1/sync/rows", method: .get)
            #expect(response.status == .ok)
            let page = try SyncPage.players(String(buffer: response.body))
            #expect(page.rows.map(\.row.values) == [["name": .text("Arthur"), "score": .integer(42)]])
            #expect(page.rows.map(\.version) == [arthur.version])
            #expect(page.digests?.first?.rows == 1)

            let zoe = UUID()
            let change = SyncChange(mutationID: UUID(), operation: .upsert,
                                    row: try PlayersSchema.player.row(id: zoe, values: ["name": .text(" Zoé "), "score": .integer(7)]),
                                    baseVersion: nil)
            let pushed = try await server.client.execute(uri: "/v1/sync/changes", method: .post, headers: Self.json,
                                                         body: ByteBuffer(data: SyncChangeBatch(changes: [change]).jsonData()))
            #expect(pushed.status == .ok)
            #expect(try await server.store.player(zoe).map { "\($0.name) \($0.score)" } == "Zoé 7")
        }
    }
}
