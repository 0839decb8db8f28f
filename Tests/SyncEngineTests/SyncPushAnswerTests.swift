import CipherDB
import CipherSync
import Foundation
import SyncEngine
import SyncSchema
import Testing

/// A push whose answer does not fit its changes: the device takes none of
/// it, and the changes stay queued for the next push.
@Suite struct SyncPushAnswerTests {
    /// A server that answers every push with `applied` and no version.
    struct AppliedWithoutVersion: HTTPTransport {
        let schema: SyncSchema

        func send(_ request: HTTPRequest) async throws -> HTTPResponse {
            let batch = try SyncChangeBatch.decode(request.body ?? Data(), schema: schema)
            let answer = SyncChangeResults(results: batch.changes.map { SyncPushResult(mutationID: $0.mutationID, status: .applied, version: nil) })
            return HTTPResponse(status: 200, body: answer.jsonData(), url: request.url)
        }
    }

    @Test func anUpsertAppliedWithoutAVersionIsRefusedAndStaysInTheOutbox() async throws {
        let notes = try NotesDatabase()
        try notes.insertNote(UUID(), notebook: UUID(), title: "Groceries")
        let queued = try notes.entries().map(\.mutationID)
        let pusher = SyncEnginePusher(notes.dbPool, schema: notes.schema, baseURL: URL(string: "http://127.0.0.1:1")!,
                                      transport: AppliedWithoutVersion(schema: notes.schema))
        do {
            _ = try await pusher.push()
            Issue.record("the push took the answer")
        } catch let error as SyncPayloadError {
            #expect(error.path == "$.results[0].version")
        }
        #expect(try notes.entries().map(\.mutationID) == queued)
    }
}
