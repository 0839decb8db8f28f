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
        guard let identity, let user = try await keyDirectory.publish(publicKey: Data(identity.publicKey).base64EncodedString()) else {
            return
        }
        try await store.writer.write { db in try db.markSyncIdentityPublished(user: user) }
    }

    /// The server's key directory, `/v1/keys`, beside the endpoint's
    /// `/v1/sync/rows`, through the client's transport.
    var keyDirectory: SyncKeyDirectoryClient {
        SyncKeyDirectoryClient(transport: transport, identityEndpoint: endpoint(beside: "../keys/identity"),
                               wrappedEndpoint: endpoint(beside: "../keys/wrapped"))
    }
}
