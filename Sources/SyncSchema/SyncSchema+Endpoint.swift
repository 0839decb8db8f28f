import Foundation

extension SyncSchema {
    /// The server's `GET /v1/sync/rows` for the declared tables alone
    /// (`tables=`, in name order): what a device pulls, and the endpoint
    /// its cursor belongs to (where a migration of an app's own sync puts
    /// the cursor it keeps).
    ///
    /// ```swift
    /// PlayersSchema.schema.rowsEndpoint(baseURL: URL(string: "http://127.0.0.1:8080")!)   // …/v1/sync/rows?tables=player
    /// ```
    public func rowsEndpoint(baseURL: URL) -> URL {
        var components = URLComponents(url: baseURL.appendingPathComponent("v1/sync/rows"), resolvingAgainstBaseURL: true)!
        components.queryItems = [URLQueryItem(name: "tables", value: tables.map(\.name).sorted().joined(separator: ","))]
        return components.url!
    }
}
