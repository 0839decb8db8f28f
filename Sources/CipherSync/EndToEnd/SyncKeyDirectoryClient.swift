import Foundation
import SyncSchema

/// The server's key directory (`/v1/keys`, Docs/SyncProtocol.md) as a
/// sync reaches it, through its transport: the identity keys users
/// published, the keys wrapped to the device's user, and the keys it
/// wraps. It carries opaque texts; ``SyncEndToEndCodec`` opens and makes
/// them.
///
/// ```swift
/// let keys = try await directory.wrappedKeys()
/// let identities = try await directory.identityKeys(of: ["bob"])
/// ```
public struct SyncKeyDirectoryClient: Sendable {
    public let transport: any HTTPTransport
    /// `/v1/keys/identity`.
    public let identityEndpoint: URL
    /// `/v1/keys/wrapped`.
    public let wrappedEndpoint: URL

    public init(transport: any HTTPTransport, identityEndpoint: URL, wrappedEndpoint: URL) {
        self.transport = transport
        self.identityEndpoint = identityEndpoint
        self.wrappedEndpoint = wrappedEndpoint
    }

    /// Publishes the user's identity key (`PUT /v1/keys/identity`): the
    /// user the server took it for; nil from a server without users (`404`:
    /// no end-to-end tables to serve). A `409` throws
    /// ``SyncError/identityRefused``: the user has published another key,
    /// which stays theirs.
    public func publish(publicKey: String) async throws -> String? {
        let response = try await transport.send(HTTPRequest(method: "PUT", url: identityEndpoint, headers: ["Content-Type": "application/json"],
                                                            body: SyncKeyMessages.identityKeyRequest(publicKey: publicKey)))
        switch response.status {
        case 200, 201:
            return try Self.reading { () throws(SyncMessageError) in try SyncKeyMessages.identityAnswerUser(from: response.body) }
        case 404:
            return nil
        case 409:
            throw SyncError.identityRefused.with(status: 409, detail: SyncClient<SyncEngineStore>.serverMessage(response.body))
        default:
            throw SyncClient<SyncEngineStore>.error(for: response)
        }
    }

    /// The identity keys that these users published (none for a user who
    /// has not), a thousand users a request.
    public func identityKeys(of users: [String]) async throws -> [SyncIdentityKey] {
        var keys: [SyncIdentityKey] = []
        for start in stride(from: 0, to: users.count, by: SyncKeyMessages.maximumKeys) {
            let part = users[start..<min(start + SyncKeyMessages.maximumKeys, users.count)]
            var components = URLComponents(url: identityEndpoint, resolvingAgainstBaseURL: true)!
            components.queryItems = [URLQueryItem(name: "users", value: part.joined(separator: ","))]
            let body = try await send(HTTPRequest(url: components.url!, headers: ["Accept": "application/json"]))
            keys += try Self.reading { () throws(SyncMessageError) in try SyncKeyMessages.identityKeys(from: body) }
                .filter { part.contains($0.user) }
        }
        return keys
    }

    /// The keys wrapped to the device's user.
    public func wrappedKeys() async throws -> [SyncWrappedKey] {
        let body = try await send(HTTPRequest(url: wrappedEndpoint, headers: ["Accept": "application/json"]))
        return try Self.reading { () throws(SyncMessageError) in try SyncKeyMessages.wrappedKeys(from: body) }
    }

    /// Stores keys the device's user wrapped, a thousand a request.
    public func store(_ keys: [SyncWrappedKey]) async throws {
        for start in stride(from: 0, to: keys.count, by: SyncKeyMessages.maximumKeys) {
            let part = Array(keys[start..<min(start + SyncKeyMessages.maximumKeys, keys.count)])
            // Stored all or none, and the same keys again are taken: a
            // retry after a lost answer does no harm.
            _ = try await send(HTTPRequest(method: "POST", url: wrappedEndpoint, headers: ["Content-Type": "application/json"],
                                           body: SyncKeyMessages.wrappedKeys(part, withSenders: false), isIdempotent: true))
        }
    }

    private func send(_ request: HTTPRequest) async throws -> Data {
        let response = try await transport.send(request)
        guard response.status == 200 else { throw SyncClient<SyncEngineStore>.error(for: response) }
        return response.body
    }

    private static func reading<T>(_ read: () throws(SyncMessageError) -> T) throws -> T {
        do {
            return try read()
        } catch {
            throw SyncPayloadError(error)
        }
    }
}
