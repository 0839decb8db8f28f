import Foundation
import Hummingbird
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

    public init(source: Source) {
        coreContext = .init(source: source)
    }

    public var responseEncoder: JSONEncoder { .api }
}
