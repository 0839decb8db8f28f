import SyncSchema

extension SyncTableAccess {
    /// Whether a user with `roles` (a verified token's) may write the
    /// table's rows: the one rule of a write's access, which every write
    /// path asks (`POST /v1/sync/changes`, `/v1/rows`).
    ///
    /// ```swift
    /// SyncTableAccess.shared(writers: ["editor"]).permitsWriting(withRoles: ["editor", "admin"])   // true
    /// ```
    public func permitsWriting(withRoles roles: Set<String>) -> Bool {
        switch self {
        case .shared(let writers): writers.contains { roles.contains($0) }
        }
    }
}

extension SyncSchema {
    /// The tables without an access rule: a server that knows its users
    /// (`--auth jwt`) refuses to start with any, since access is denied by
    /// default.
    public var tablesWithoutAccess: [String] {
        tables.filter { $0.access == nil }.map(\.name)
    }
}
