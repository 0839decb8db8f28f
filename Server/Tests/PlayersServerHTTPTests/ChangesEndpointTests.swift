import Foundation
import Hummingbird
import NIOCore
import NIOFoundationCompat
import PlayersProtocol
import PlayersServerStore
import TestSupport
import ServerTestSupport
import Testing

/// `POST /v1/changes` over HTTP: the answer, the batches refused whole,
/// and the statuses of the requests that do not reach the store.
@Suite struct ChangesEndpointTests {
    let api = PlayersAPITests()
    static let json: HTTPFields = [.contentType: "application/json"]

    func post(_ client: APIClient, _ body: String, headers: HTTPFields = json) async throws -> APIResponse {
        try await client.execute(uri: "/v1/changes", method: .post, headers: headers, body: ByteBuffer(string: body))
    }

    func post(_ client: APIClient, _ batch: PlayersChangeBatch) async throws -> APIResponse {
        try await post(client, String(decoding: try batch.jsonData(), as: UTF8.self))
    }

    func create(_ name: String = "Zoé", uuid: UUID = UUID(), id: UUID = UUID()) -> PlayersChangeBatch.Change {
        .init(mutationID: id, uuid: uuid, kind: .save, name: name, score: 5, baseVersion: nil)
    }

    @Test(arguments: StoreKind.allCases)
    func aBatchIsAnsweredWithOneResultPerChangeInOrder(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind) { server in
            let (store, client) = (server.store, server.client)
            let player = try await store.insert(name: "Arthur", score: 1)
            try await store.update(player.uuid, score: 150)
            let batch = PlayersChangeBatch(changes: [
                .init(mutationID: UUID(), uuid: player.uuid, kind: .save, name: "Arthur", score: 120, baseVersion: 1),
                create(),
            ])
            let response = try await post(client, batch)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/json; charset=utf-8")
            let answer = try PlayersChangeResults.decode(Data(buffer: response.body), answering: batch)
            #expect(answer.results.map(\.status) == [.conflict, .applied])
            #expect(answer.results[0].player?.score == 150)
            #expect(answer.results[1].version == 3)
            // The API's encoder: sorted keys, as Docs/SyncProtocol.md shows.
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
            let response = try await post(client, #"{"changes":[],"protocolVersion":1}"#)
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
            let batch = PlayersChangeBatch(changes: [
                create(),
                .init(mutationID: UUID(), uuid: player.uuid, kind: .delete, baseVersion: 1),
            ])
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
            let valid = create("Valid")
            let before = try await store.state()
            let sameID = UUID()
            let sameUUID = UUID()
            func batch(_ changes: [PlayersChangeBatch.Change], version: Int = 1) throws -> String {
                var batch = PlayersChangeBatch(changes: [valid] + changes)
                batch.protocolVersion = version
                return String(decoding: try batch.jsonData(), as: UTF8.self)
            }
            let cases: [(String, String)] = [
                (try batch([create("\u{1B}[31mred")]), "$.changes[1].name"),
                (try batch([create(id: sameID), create(id: sameID)]), "$.changes[2].mutationID"),
                (try batch([create(uuid: sameUUID), create(uuid: sameUUID)]), "$.changes[2].uuid"),
                (try batch((0..<500).map { _ in create() }), "$.changes: more than 500"),
                (try batch([], version: 2), "$.protocolVersion"),
                (try batch([.init(mutationID: UUID(), uuid: player.uuid, kind: .delete, name: "A", baseVersion: 1)]), "$.changes[1].name"),
                (#"{"changes":[{"kind":"save"}],"protocolVersion":1}"#, "$.changes[0].mutationID: missing"),
                ("{not json", "$: not valid JSON"),
            ]
            for (body, message) in cases {
                let response = try await post(client, body)
                #expect(response.status == .badRequest, "\(message)")
                #expect(try api.errorMessage(response)?.hasPrefix(message) == true, "\(message): \(String(buffer: response.body))")
                #expect(try await store.state() == before, "\(message)")
            }
            // The valid change was not recorded either: alone, it is applied now.
            let alone = try await post(client, PlayersChangeBatch(changes: [valid]))
            #expect(String(buffer: alone.body).contains(#""status":"applied","version":2"#))
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
            let first = create("Arthur", id: id)
            #expect(try await post(client, PlayersChangeBatch(changes: [first])).status == .ok)
            #expect(try await post(client, PlayersChangeBatch(changes: [first])).status == .ok)
            let before = try await store.state()
            let reused = try await post(client, PlayersChangeBatch(changes: [create("Zoé"), create("Zaphod", id: id)]))
            #expect(reused.status == .conflict)
            #expect(String(buffer: reused.body).contains("the mutation id \(id.uuidString) was used for another change"))
            #expect(try await store.state() == before)
        }
    }

    /// A misspelled key is refused, not dropped (`baseversion` would make
    /// an update a creation); so are a key twice and a number that is
    /// not an integer written as one, as on `POST /v1/players`.
    @Test(arguments: StoreKind.allCases)
    func aBatchWithAnUnknownOrRepeatedKeyOrANonIntegerIsRefused(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind) { server in
            let (store, client) = (server.store, server.client)
            let change = #""kind":"save","mutationID":"\#(UUID().uuidString)","name":"Zoé","uuid":"\#(UUID().uuidString)""#
            for (body, message) in [
                (#"{"changes":[{\#(change),"score":5,"baseversion":3}],"protocolVersion":1}"#, "$.changes[0].baseversion: unknown key"),
                (#"{"changes":[{\#(change),"score":5}],"protocolVersion":1,"extra":true}"#, "$.extra: unknown key"),
                (#"{"changes":[{\#(change),"score":5,"score":6}],"protocolVersion":1}"#, "$.changes[0].score: appears twice"),
                (#"{"changes":[{\#(change),"score":5e0}],"protocolVersion":1}"#,
                 "$.changes[0].score: not an integer written as one (digits only, no fraction, exponent or -0)"),
            ] {
                let response = try await post(client, body)
                #expect(response.status == .badRequest, "\(body)")
                #expect(String(buffer: response.body).contains(message), "\(String(buffer: response.body))")
            }
            #expect(try await store.currentVersion() == 0)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func requestsThatDoNotReachTheStoreGetTheirStatuses(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind) { server in
            let (store, client) = (server.store, server.client)
            let valid = String(decoding: try PlayersChangeBatch(changes: [create()]).jsonData(), as: UTF8.self)
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
            let tooLarge = try await post(client, String(repeating: " ", count: 1024 * 1024) + valid)
            #expect(tooLarge.status == .contentTooLarge)
            for method in [HTTPRequest.Method.get, .put, .delete, .patch] {
                let response = try await client.execute(uri: "/v1/changes", method: method, headers: Self.json)
                #expect(response.status == .methodNotAllowed, "\(method)")
                #expect(response.headers[.allow] == "POST", "\(method)")
            }
            // Only the one valid batch was applied (its retries answered again).
            #expect(try await store.currentVersion() == 1)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func fullBatchesPassTheBodyLimitOfOnePlayer(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind) { server in
            let (store, client) = (server.store, server.client)
            // 500 changes with the longest names: about 300 KB, far over 16 KiB.
            let name = String(repeating: "\u{1F600}", count: 100)
            let batch = PlayersChangeBatch(changes: (0..<500).map { _ in create(name) })
            #expect(try batch.jsonData().count > 200_000)
            let response = try await post(client, batch)
            #expect(response.status == .ok)
            #expect(try await store.currentVersion() == 500)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func theTokenIsRequiredWhenConfigured(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind, token: "s3cret-token") { server in
            let (store, client) = (server.store, server.client)
            let valid = String(decoding: try PlayersChangeBatch(changes: [create()]).jsonData(), as: UTF8.self)
            #expect(try await post(client, valid).status == .unauthorized)
            #expect(try await post(client, valid, headers: [.contentType: "application/json", .authorization: "Bearer nope"]).status == .unauthorized)
            #expect(try await store.currentVersion() == 0)
            let right = try await post(client, valid, headers: [.contentType: "application/json", .authorization: "Bearer s3cret-token"])
            #expect(right.status == .ok)
            #expect(try await store.currentVersion() == 1)
        }
    }
}
