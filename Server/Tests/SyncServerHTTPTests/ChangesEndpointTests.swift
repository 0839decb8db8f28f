import Foundation
import Hummingbird
import NIOCore
import NIOFoundationCompat
import PlayersShared
import ServerTestSupport
import SyncSchema
import TestSupport
import Testing

/// `POST /v1/sync/changes` over HTTP with Players' changes: the answer,
/// the batches refused whole, and the statuses of the requests that do
/// not reach the store (what `POST /v1/changes` was tested for before the
/// engine).
@Suite struct ChangesEndpointTests {
    static let json: HTTPFields = [.contentType: "application/json"]

    func post(_ client: APIClient, _ body: String, headers: HTTPFields = json) async throws -> APIResponse {
        try await client.execute(uri: "/v1/sync/changes", method: .post, headers: headers, body: ByteBuffer(string: body))
    }

    func post(_ client: APIClient, _ changes: [SyncChange]) async throws -> APIResponse {
        try await post(client, body(changes))
    }

    func body(_ changes: [SyncChange]) throws -> String {
        String(decoding: SyncChangeBatch(changes: changes).jsonData(), as: UTF8.self)
    }

    func results(_ response: APIResponse, answering changes: [SyncChange]) throws -> [SyncPushResult] {
        #expect(response.status == .ok, "\(String(buffer: response.body))")
        return try SyncChangeResults.decode(Data(buffer: response.body), answering: changes, schema: PlayersSchema.schema).results
    }

    func create(_ name: String = "Zoé", uuid: UUID = UUID(), id: UUID = UUID()) throws -> SyncChange {
        try save(uuid, name: name, score: 5, base: nil, id: id)
    }

    func save(_ uuid: UUID, name: String, score: Int64, base: Int64?, id: UUID = UUID()) throws -> SyncChange {
        try .playerSave(uuid, name: name, score: score, base: base, mutationID: id)
    }

    func delete(_ uuid: UUID, base: Int64?) throws -> SyncChange {
        try .playerDelete(uuid, base: base)
    }

    @Test(arguments: StoreKind.allCases)
    func aBatchIsAnsweredWithOneResultPerChangeInOrder(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind) { server in
            let (store, client) = (server.store, server.client)
            let player = try await store.insert(name: "Arthur", score: 1)
            try await store.update(player.uuid, score: 150)
            let changes = [try save(player.uuid, name: "Arthur", score: 120, base: 1), try create()]
            let response = try await post(client, changes)
            #expect(response.headers[.contentType] == "application/json; charset=utf-8")
            let answer = try results(response, answering: changes)
            #expect(answer.map(\.status) == [.conflict, .applied])
            #expect(answer[0].serverRow?.values["score"] == .integer(150))
            #expect(answer[0].version == 2)
            #expect(answer[1].version == 3)
            // Sorted keys, as Docs/SyncProtocol.md shows.
            #expect(String(buffer: response.body).hasPrefix(#"{"protocolVersion":1,"results":[{"mutationID":"#))
        }
    }

    /// Docs/SyncProtocol.md's example batch and its answer, the first two
    /// JSON blocks of "Pushing changes".
    static func documentedExample() throws -> (batch: String, answer: String) {
        let text = try String(contentsOf: BuiltProducts.packageRoot.appendingPathComponent("Docs/SyncProtocol.md"), encoding: .utf8)
        let section = try #require(text.range(of: "## Pushing changes").map { text[$0.upperBound...] })
        let blocks = section.components(separatedBy: "```json\n").dropFirst().prefix(2).map { $0.components(separatedBy: "\n```")[0] }
        try #require(blocks.count == 2)
        return (blocks[0], blocks[1])
    }

    @Test(arguments: StoreKind.allCases)
    func theDocumentedExampleIsTheServersAnswer(_ kind: StoreKind) async throws {
        let (batch, answer) = try Self.documentedExample()
        try await APITestServer.with(kind) { server in
            let (store, client) = (server.store, server.client)
            // The state the example implies: Arthur changed since version 3
            // (he is at 7, with 150), and Zoé is new.
            for index in 0..<6 { _ = try await store.insert(name: "P\(index)", score: index) }
            _ = try await store.insert(uuid: try #require(UUID(uuidString: "0CCF2B1F-9D58-4B77-9ADD-B410E1E65D34")), name: "Arthur", score: 150)
            let response = try await post(client, batch)
            #expect(response.status == .ok)
            #expect(String(buffer: response.body) == answer)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func anEmptyBatchIsAnsweredWithNoResults(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind) { server in
            let (store, client) = (server.store, server.client)
            let response = try await post(client, try body([]))
            #expect(response.status == .ok)
            #expect(String(buffer: response.body) == #"{"protocolVersion":1,"results":[]}"#)
            #expect(try await store.currentVersion() == 0)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aBatchSentAgainGetsTheSameAnswerAndAppliesNothingTwice(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind) { server in
            let (store, client) = (server.store, server.client)
            let player = try await store.insert(name: "Arthur", score: 1)
            let batch = try body([try create(), try delete(player.uuid, base: 1)])
            let first = try await post(client, batch)
            #expect(first.status == .ok)
            let after = try await store.state()
            let again = try await post(client, batch)
            #expect(again.status == .ok)
            #expect(String(buffer: again.body) == String(buffer: first.body))
            #expect(try await store.state() == after)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aBatchThatBreaksARuleIsRefusedWholeAndChangesNothing(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind) { server in
            let (store, client) = (server.store, server.client)
            let player = try await store.insert(name: "Arthur", score: 1)
            let valid = try create("Valid")
            let before = try await store.state()
            let sameID = UUID()
            let sameUUID = UUID()
            let validJSON = String(decoding: SyncChangeBatch(changes: [valid]).jsonData(), as: UTF8.self)
            /// The valid change's batch, with `change`'s JSON after it.
            func batch(adding change: String) -> String {
                validJSON.replacingOccurrences(of: "}]", with: "},\(change)]")
            }
            let cases: [(String, String)] = [
                (batch(adding: #"{"id":"\#(UUID())","mutationID":"\#(UUID())","operation":"upsert","table":"player","values":{"name":"\u001b[31mred","score":1}}"#),
                 "$.changes[1].values.name"),
                (try body([valid, try create(id: sameID), try create(id: sameID)]), "$.changes[2].mutationID"),
                (try body([valid, try create(uuid: sameUUID), try create(uuid: sameUUID)]), "$.changes[2]"),
                (try body([valid] + (0..<500).map { _ in try create() }), "$.changes: more than 500"),
                (validJSON.replacingOccurrences(of: #""protocolVersion":1"#, with: #""protocolVersion":2"#), "$.protocolVersion"),
                (batch(adding: #"{"id":"\#(player.uuid)","mutationID":"\#(UUID())","operation":"delete","table":"player","values":{"name":"A"}}"#),
                 "$.changes[1].values"),
                (#"{"changes":[{"operation":"upsert"}],"protocolVersion":1}"#, "$.changes[0]"),
                ("{not json", "$: not valid JSON"),
            ]
            for (body, message) in cases {
                let response = try await post(client, body)
                #expect(response.status == .badRequest, "\(message)")
                #expect(response.errorMessage?.hasPrefix(message) == true, "\(message): \(String(buffer: response.body))")
                #expect(try await store.state() == before, "\(message)")
            }
            // The valid change was not recorded either: alone, it is applied now.
            #expect(try results(try await post(client, [valid]), answering: [valid]).map(\.version) == [2])
        }
    }

    /// Idempotency keys as payment APIs use them: a retry of a change gets
    /// its answer again; its mutation id with another change is a 409,
    /// and nothing of that batch is applied.
    @Test(arguments: StoreKind.allCases)
    func aMutationIDReusedForAnotherChangeIsRefused(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind) { server in
            let (store, client) = (server.store, server.client)
            let id = UUID()
            let first = try create("Arthur", id: id)
            #expect(try await post(client, [first]).status == .ok)
            #expect(try await post(client, [first]).status == .ok)
            let before = try await store.state()
            let reused = try await post(client, [try create("Zoé"), try create("Zaphod", id: id)])
            #expect(reused.status == .conflict)
            #expect(String(buffer: reused.body).contains("the mutation id \(id.uuidString) was answered before for another change"))
            #expect(try await store.state() == before)
        }
    }

    /// A misspelled key is refused, not dropped (`baseversion` would make
    /// an update a creation); so are a key twice and a number that is
    /// not an integer written as one, in a column of integers.
    @Test(arguments: StoreKind.allCases)
    func aBatchWithAnUnknownOrRepeatedKeyOrANonIntegerIsRefused(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind) { server in
            let (store, client) = (server.store, server.client)
            let change = #""id":"\#(UUID().uuidString)","mutationID":"\#(UUID().uuidString)","operation":"upsert","table":"player""#
            for (body, message) in [
                (#"{"changes":[{\#(change),"values":{"name":"Zoé","score":5},"baseversion":3}],"protocolVersion":1}"#, "$.changes[0].baseversion"),
                (#"{"changes":[{\#(change),"values":{"name":"Zoé","score":5}}],"protocolVersion":1,"extra":true}"#, "$.extra"),
                (#"{"changes":[{\#(change),"values":{"name":"Zoé","score":5,"score":6}}],"protocolVersion":1}"#, "$.changes[0].values.score"),
                (#"{"changes":[{\#(change),"values":{"name":"Zoé","score":5e0}}],"protocolVersion":1}"#, "$.changes[0].values.score"),
                (#"{"changes":[{\#(change),"values":{"name":"Zoé","score":-0}}],"protocolVersion":1}"#, "$.changes[0].values.score"),
                (#"{"changes":[{\#(change),"values":{"name":"Zoé","score":5}}],"protocolVersion":1.0}"#, "$.protocolVersion"),
            ] {
                let response = try await post(client, body)
                #expect(response.status == .badRequest, "\(body)")
                #expect(response.errorMessage?.hasPrefix(message) == true, "\(String(buffer: response.body))")
            }
            #expect(try await store.currentVersion() == 0)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func requestsThatDoNotReachTheStoreGetTheirStatuses(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind) { server in
            let (store, client) = (server.store, server.client)
            let valid = try body([try create()])
            #expect(try await post(client, valid, headers: [:]).status == .unsupportedMediaType)
            #expect(try await post(client, valid, headers: [.contentType: "text/plain"]).status == .unsupportedMediaType)
            // Only application/json itself, in UTF-8, as CLI.md and Server.md say.
            for contentType in ["application/jsonp", "application/json-patch+json", "application/json; charset=utf-16",
                                "application/json;charset=latin1", "application/json; boundary=x"] {
                #expect(try await post(client, valid, headers: [.contentType: contentType]).status == .unsupportedMediaType, "\(contentType)")
            }
            for contentType in ["Application/JSON", "application/json; charset=UTF-8", "application/json;charset=\"utf-8\""] {
                #expect(try await post(client, valid, headers: [.contentType: contentType]).status == .ok, "\(contentType)")
            }
            let tooLarge = try await post(client, String(repeating: " ", count: 16 * 1024 * 1024) + valid)
            #expect(tooLarge.status == .contentTooLarge)
            for method in [HTTPRequest.Method.get, .put, .delete, .patch] {
                let response = try await client.execute(uri: "/v1/sync/changes", method: method, headers: Self.json)
                #expect(response.status == .methodNotAllowed, "\(method)")
                #expect(response.headers[.allow] == "POST", "\(method)")
            }
            // Only the one valid batch was applied (its retries answered again).
            #expect(try await store.currentVersion() == 1)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func fullBatchesOfTheLongestNamesAreApplied(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind) { server in
            let (store, client) = (server.store, server.client)
            // 500 changes with the longest names: about 300 KB.
            let name = String(repeating: "\u{1F600}", count: 100)
            let batch = try body((0..<500).map { _ in try create(name) })
            #expect(batch.utf8.count > 200_000)
            let response = try await post(client, batch)
            #expect(response.status == .ok)
            #expect(try await store.currentVersion() == 500)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func theTokenIsRequiredWhenConfigured(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind, token: "s3cret-token") { server in
            let (store, client) = (server.store, server.client)
            let valid = try body([try create()])
            #expect(try await post(client, valid).status == .unauthorized)
            #expect(try await post(client, valid, headers: [.contentType: "application/json", .authorization: "Bearer nope"]).status == .unauthorized)
            #expect(try await store.currentVersion() == 0)
            let right = try await post(client, valid, headers: [.contentType: "application/json", .authorization: "Bearer s3cret-token"])
            #expect(right.status == .ok)
            #expect(try await store.currentVersion() == 1)
        }
    }
}
