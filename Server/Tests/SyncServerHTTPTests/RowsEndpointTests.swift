import Foundation
import Hummingbird
import NIOCore
import NIOFoundationCompat
import ServerTestSupport
import SyncSchema
import SyncServer
import TestSupport
import Testing

/// The server's rows for scripts (`/v1/rows/TABLE/ID`), on both stores:
/// each edit a change of the engine, by the rules of a push, checked by
/// the declaration, pulled by the devices as any other change.
@Suite struct RowsEndpointTests {
    static let json: HTTPFields = [.contentType: "application/json"]
    let schema = SyncSchema.testNotes
    let work = UUID(), groceries = UUID()

    func send(_ client: APIClient, _ method: HTTPRequest.Method, _ uri: String, _ body: String? = nil,
              mutationID: UUID? = nil) async throws -> APIResponse {
        var headers = Self.json
        if let mutationID { headers[HTTPFields.Element.Name("Mutation-ID")!] = mutationID.uuidString }
        return try await client.execute(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
    }

    /// The row of an answer: its version and values.
    func row(_ response: APIResponse) throws -> (version: Int64, values: [String: Any]) {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
        return (try #require(object["version"] as? Int64 ?? (object["version"] as? Int).map(Int64.init)),
                try #require(object["values"] as? [String: Any]))
    }

    func error(_ response: APIResponse) -> [String: String] {
        let object = try? JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: [String: String]]
        return object?["error"] ?? [:]
    }

    @Test(arguments: StoreKind.allCases)
    func aRowIsCreatedReadUpdatedOnItsVersionAndDeleted(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind, schema: schema) { server in
            let path = "/v1/rows/notebook/\(work.uuidString)"
            let created = try await send(server.client, .post, "/v1/rows/notebook", #"{"id":"\#(work.uuidString)","values":{"name":"Work"}}"#)
            #expect(created.status == .created, "\(String(buffer: created.body))")
            let version = try row(created).version
            #expect(try row(try await send(server.client, .get, path)).values["name"] as? String == "Work")

            let updated = try await send(server.client, .put, path, #"{"values":{"name":"Office"},"version":\#(version)}"#)
            #expect(updated.status == .ok)
            #expect(try row(updated).version == version + 1)
            let stale = try await send(server.client, .put, path, #"{"values":{"name":"Job"},"version":\#(version)}"#)
            #expect(stale.status == .conflict)
            #expect(error(stale)["version"] == String(version + 1))
            #expect(try row(try await send(server.client, .get, path)).values["name"] as? String == "Office")

            #expect(try await send(server.client, .delete, path + "?version=\(version)").status == .conflict)
            #expect(try await send(server.client, .delete, path).status == .noContent)
            #expect(try await send(server.client, .get, path).status == .notFound)
            #expect(try await send(server.client, .delete, path).status == .notFound)
            let again = try await send(server.client, .post, "/v1/rows/notebook", #"{"id":"\#(work.uuidString)","values":{"name":"Work"}}"#)
            #expect(again.status == .conflict)
            #expect(error(again)["message"]?.contains("was deleted") == true)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func anUpdateOfATableMergedByColumnSetsItsColumnsAndKeepsTheOthers(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind, schema: schema) { server in
            _ = try await send(server.client, .post, "/v1/rows/notebook", #"{"id":"\#(work.uuidString)","values":{"name":"Work"}}"#)
            let note = #"{"id":"\#(groceries.uuidString)","values":{"notebook":"\#(work.uuidString)","title":"Groceries","body":"Milk"}}"#
            #expect(try await send(server.client, .post, "/v1/rows/note", note).status == .created)
            let updated = try await send(server.client, .put, "/v1/rows/note/\(groceries.uuidString)", #"{"values":{"body":"Eggs"}}"#)
            #expect(updated.status == .ok)
            let values = try row(updated).values
            #expect(values["title"] as? String == "Groceries" && values["body"] as? String == "Eggs")
        }
    }

    @Test(arguments: StoreKind.allCases)
    func anEditIsPulledAsAnyChange(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind, schema: schema) { server in
            let snapshot = try await server.client.execute(uri: "/v1/sync/rows", method: .get)
            let cursor = try SyncPage.decode(Data(buffer: snapshot.body), schema: schema).cursor
            _ = try await send(server.client, .post, "/v1/rows/notebook", #"{"id":"\#(work.uuidString)","values":{"name":"Work"}}"#)
            let delta = try await server.client.execute(uri: "/v1/sync/rows?since=\(cursor)", method: .get)
            let page = try SyncPage.decode(Data(buffer: delta.body), schema: schema)
            #expect(page.rows.map(\.row.id) == [work])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aRequestSentAgainWithItsMutationIDGetsItsAnswerAndAnotherChangeIsRefused(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind, schema: schema) { server in
            let mutationID = UUID()
            let body = #"{"id":"\#(work.uuidString)","values":{"name":"Work"}}"#
            let first = try await send(server.client, .post, "/v1/rows/notebook", body, mutationID: mutationID)
            let again = try await send(server.client, .post, "/v1/rows/notebook", body, mutationID: mutationID)
            #expect(first.status == .created && again.status == .created)
            #expect(try row(first).version == row(again).version)
            #expect(try await server.engine.currentVersion() == row(first).version)
            let other = try await send(server.client, .post, "/v1/rows/notebook", #"{"id":"\#(work.uuidString)","values":{"name":"Home"}}"#,
                                       mutationID: mutationID)
            #expect(other.status == .conflict)
            #expect(error(other)["message"]?.contains("mutation id") == true)
            let withoutVersion = try await send(server.client, .put, "/v1/rows/notebook/\(work.uuidString)", #"{"values":{"name":"Home"}}"#,
                                                mutationID: UUID())
            #expect(withoutVersion.status == .badRequest)

            let version = try row(first).version
            let update = (UUID(), #"{"values":{"name":"Office"},"version":\#(version)}"#)
            let updated = try await send(server.client, .put, "/v1/rows/notebook/\(work.uuidString)", update.1, mutationID: update.0)
            let updatedAgain = try await send(server.client, .put, "/v1/rows/notebook/\(work.uuidString)", update.1, mutationID: update.0)
            #expect(updated.status == .ok && updatedAgain.status == .ok, "\(String(buffer: updatedAgain.body))")
            #expect(try row(updated).version == row(updatedAgain).version)

            let delete = (UUID(), "/v1/rows/notebook/\(work.uuidString)?version=\(try row(updated).version)")
            #expect(try await send(server.client, .delete, delete.1, mutationID: delete.0).status == .noContent)
            #expect(try await send(server.client, .delete, delete.1, mutationID: delete.0).status == .noContent)
            let counter = try await server.engine.currentVersion()
            #expect(counter == version + 2)

            let unknown = "/v1/rows/notebook/\(UUID().uuidString)"
            #expect(try await send(server.client, .put, unknown, #"{"values":{"name":"X"},"version":1}"#, mutationID: UUID()).status == .notFound)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func editsAreCheckedByTheDeclarationAndARefusedOneChangesNothing(_ kind: StoreKind) async throws {
        try await APITestServer.with(kind, schema: schema) { server in
            let refusals: [(String, String, String)] = [
                ("/v1/rows/notebook", #"{"values":{"name":"\#(String(repeating: "x", count: 101))"}}"#, "$.values.name"),
                ("/v1/rows/notebook", #"{"values":{"nom":"Work"}}"#, "$.values.nom"),
                ("/v1/rows/notebook", #"{"values":{}}"#, "$.values.name"),
                ("/v1/rows/notebook", #"{"values":{"name":"Work"},"colour":1}"#, "$.colour"),
                ("/v1/rows/notebook", #"{"values":{"name":"Work"},"version":3}"#, "'version' is for PUT"),
                ("/v1/rows/note", #"{"values":{"notebook":"\#(work.uuidString)","title":7}}"#, "$.values.title"),
            ]
            for (uri, body, said) in refusals {
                let response = try await send(server.client, .post, uri, body)
                #expect(response.status == .badRequest, "\(body)")
                #expect(error(response)["message"]?.contains(said) == true, "\(body): \(error(response))")
            }
            #expect(try await send(server.client, .post, "/v1/rows/tag", #"{"values":{}}"#).status == .notFound)
            #expect(try await send(server.client, .get, "/v1/rows/notebook/not-a-uuid").status == .badRequest)
            #expect(try await server.engine.currentVersion() == 0)
        }
    }
}
