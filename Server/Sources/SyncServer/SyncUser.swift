/// The user a request is made for, under signed identities (`--auth jwt`):
/// the verified token's `sub` and `roles`. A store reads and writes for one
/// (``SyncRights``), or for the server itself and the shared token's
/// clients when there is none.
///
/// ```swift
/// let page = try await store.snapshot(after: nil, limit: 500, tables: nil, for: SyncUser(name: "alice", roles: []))
/// ```
public struct SyncUser: Sendable, Hashable {
    public let name: String
    public let roles: Set<String>

    public init(name: String, roles: Set<String>) {
        self.name = name
        self.roles = roles
    }
}
