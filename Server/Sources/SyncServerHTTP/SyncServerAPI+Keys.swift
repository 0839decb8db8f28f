import Foundation
import Hummingbird
import SyncSchema
import SyncServer

/// The key directory of end-to-end tables (Docs/SyncProtocol.md, "Keys"),
/// served under signed identities alone: `PUT` and `GET /v1/keys/identity`,
/// `POST` and `GET /v1/keys/wrapped`. The server keeps what devices send
/// and opens none of it; who may write what is ``SyncKeyDirectory``'s rule.
extension SyncServerAPI {
    static let identityKeysPath = "/v1/keys/identity"
    static let wrappedKeysPath = "/v1/keys/wrapped"
    /// The largest body of a key request: a thousand wrapped keys.
    static let maximumKeysBodySize = 4 << 20

    /// `PUT /v1/keys/identity`: publishes the user's identity key; 201,
    /// or 200 for the key they had, naming the user; 409 for another key
    /// than theirs.
    @Sendable func publishIdentityKey(_ request: Request, _ context: SyncRequestContext) async throws -> SyncJSONAnswer {
        let user = try keyUser(context)
        let data = try await body(request, upTo: Self.maximumKeysBodySize)
        let publicKey: String
        do {
            publicKey = try SyncKeyMessages.publicKey(from: data)
        } catch {
            throw APIError.badRequest(error.description)
        }
        switch try await engine.publish(SyncIdentityKey(user: user.name, publicKey: publicKey)) {
        case .published: return SyncJSONAnswer(body: SyncKeyMessages.identityAnswer(status: "published", user: user.name), status: .created)
        case .unchanged: return SyncJSONAnswer(body: SyncKeyMessages.identityAnswer(status: "unchanged", user: user.name))
        case .conflicting:
            throw APIError(.conflict, "\(user.name) has published another identity key, which stays theirs: this device's recovery key "
                + "is not theirs; use the recovery key of their first device")
        }
    }

    /// `GET /v1/keys/identity?users=NAME,NAME`: the identity keys those
    /// users published.
    @Sendable func listIdentityKeys(_ request: Request, _ context: SyncRequestContext) async throws -> SyncJSONAnswer {
        _ = try keyUser(context)
        let users = (request.uri.queryParameters.get("users") ?? "").split(separator: ",").map(String.init)
        guard !users.isEmpty, users.count <= SyncKeyMessages.maximumKeys,
              users.allSatisfy({ $0.utf8.count <= SyncKeyMessages.maximumTextLength }) else {
            throw APIError.badRequest("name the users whose keys to read: ?users=NAME,NAME (1 to \(SyncKeyMessages.maximumKeys))")
        }
        return SyncJSONAnswer(body: SyncKeyMessages.identityKeys(try await engine.identityKeys(of: users)))
    }

    /// `POST /v1/keys/wrapped`: keeps keys the user wrapped, all or none;
    /// 403 for a partition they do not own, 409 for a key that would
    /// replace another.
    @Sendable func storeWrappedKeys(_ request: Request, _ context: SyncRequestContext) async throws -> SyncJSONAnswer {
        let user = try keyUser(context)
        let data = try await body(request, upTo: Self.maximumKeysBodySize)
        let keys: [SyncWrappedKey]
        do {
            keys = try SyncKeyMessages.wrappedKeys(from: data, sender: user.name)
        } catch {
            throw APIError.badRequest(error.description)
        }
        switch try await engine.store(keys, by: user) {
        case .stored:
            return SyncJSONAnswer(body: SyncKeyMessages.status("stored"))
        case .notOwner(let partition):
            throw APIError.forbidden("\(user.name) does not own the partition \(partition), whose owner alone wraps its keys: "
                + "nothing was stored")
        case .conflicting(let partition, let epoch, let recipient):
            throw APIError(.conflict, "the key of epoch \(epoch) of \(partition) for \(recipient) is stored already, and an epoch's key "
                + "never changes: nothing was stored; wrap the keys of a new epoch")
        }
    }

    /// `GET /v1/keys/wrapped`: the keys wrapped to the user.
    @Sendable func listWrappedKeys(_ request: Request, _ context: SyncRequestContext) async throws -> SyncJSONAnswer {
        let user = try keyUser(context)
        return SyncJSONAnswer(body: SyncKeyMessages.wrappedKeys(try await engine.wrappedKeys(for: user.name), withSenders: true))
    }

    /// The request's user: keys are users', so a server of one shared
    /// token has no key directory.
    private func keyUser(_ context: SyncRequestContext) throws -> SyncUser {
        guard let user = context.user else {
            throw APIError.notFound("the key directory is served under signed identities alone (players-server --auth jwt)")
        }
        return user
    }
}
