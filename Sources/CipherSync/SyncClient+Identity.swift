import Foundation
import SyncEngine
import SyncSchema

extension SyncClient where Store == SyncEngineStore {
    /// Publishes the device's identity key (`PUT /v1/keys/identity`) until
    /// a server takes it, and keeps the user the server took it for (the
    /// owner of the rows the device creates), so that a device whose recovery key is not its
    /// user's reads and writes nothing: a `409` throws
    /// ``SyncError/identityRefused``. A device without an identity, or a
    /// server without users (`404`: no end-to-end tables to serve), skips
    /// it.
    func publishIdentity() async throws {
        let identity = try await store.writer.read { db -> SyncStoredIdentity? in
            try db.syncIdentityUser() != nil ? nil : db.syncIdentity()
        }
        guard let identity else { return }
        let body = SyncKeyMessages.identityKeyRequest(publicKey: Data(identity.publicKey).base64EncodedString())
        let response = try await transport.send(HTTPRequest(method: "PUT", url: endpoint(beside: "../keys/identity"),
                                                            headers: ["Content-Type": "application/json"], body: body))
        switch response.status {
        case 200, 201:
            let user: String
            do {
                user = try SyncKeyMessages.identityAnswerUser(from: response.body)
            } catch {
                throw SyncPayloadError(path: error.path, error.message)
            }
            try await store.writer.write { db in try db.markSyncIdentityPublished(user: user) }
        case 404:
            return
        case 409:
            throw SyncError.identityRefused.with(status: 409, detail: Self.serverMessage(response.body))
        default:
            throw Self.error(for: response)
        }
    }
}
