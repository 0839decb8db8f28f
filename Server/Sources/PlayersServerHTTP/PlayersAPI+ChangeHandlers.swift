import Foundation
import Hummingbird
import PlayersProtocol
import PlayersServerStore

extension PlayersAPI {
    /// `POST /v1/changes`: applies a client's batch of changes in one
    /// transaction; 200 with one result per change, 400 for a batch that
    /// breaks a rule of Docs/SyncProtocol.md, 409 for a mutation id
    /// already used for another change, or 412 for a batch that names
    /// another server database (then nothing of it is applied).
    @Sendable func applyChanges(_ request: Request, _ context: PlayersRequestContext) async throws -> PlayersChangeResults {
        let data = try await body(request, upTo: configuration.maximumChangesBodySize)
        let batch: PlayersChangeBatch
        do {
            batch = try PlayersChangeBatch.decode(data)
        } catch {
            throw APIError.badRequest(error.description)
        }
        if let server = batch.server, server != store.history.server {
            throw APIError(.preconditionFailed,
                           "this server's database is \(store.history.server.uuidString), not \(server.uuidString), which the client synced with")
        }
        do {
            return try await store.applyChanges(batch)
        } catch let error as MutationIDReusedError {
            throw APIError(.conflict, error.description)
        }
    }
}
