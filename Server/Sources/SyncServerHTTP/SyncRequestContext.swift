import Foundation
import Hummingbird
import SyncServer
import SyncServerAuth

/// The context of the API's requests: Hummingbird's basic context, with
/// the API's encoder (`JSONEncoder.api`: sorted keys, no escaped
/// slashes) for every response body, so that clients get the bytes of
/// Docs/SyncProtocol.md.
public struct SyncRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// Who sent the request, under signed identities (`--auth jwt`); nil
    /// otherwise.
    public var identity: SyncIdentity?

    /// The user whose rights the request's reads and writes have (``SyncServer/SyncRights``):
    /// the identity's; nil for the shared token, whose requests read and
    /// write every row.
    public var user: SyncUser? {
        identity.map { SyncUser(name: $0.user, roles: $0.roles) }
    }

    public init(source: Source) {
        coreContext = .init(source: source)
    }

    public var responseEncoder: JSONEncoder { .api }
}
