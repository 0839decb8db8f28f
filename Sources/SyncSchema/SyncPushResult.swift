import Foundation

/// The server's answer to one pushed change.
public struct SyncPushResult: Sendable, Equatable {
    public enum Status: Sendable, Equatable {
        /// The change is on the server (now, or the first time its
        /// mutation id was sent).
        case applied
        /// The row changed on the server since the change's base version,
        /// in the columns the change touched: the server's row stands.
        case conflict
    }

    public var mutationID: UUID
    public var status: Status
    /// Applied: the version the change gave the row (a delete: its
    /// tombstone's); absent for the delete of a row the server had already
    /// forgotten. Conflict: the server's version of the row.
    public var version: Int64?
    /// Conflict: the server's row, after whatever of the change it could
    /// merge (a table merged by column applies the columns no one else
    /// changed); nil when the row is deleted on the server.
    public var serverRow: SyncRow?

    public init(mutationID: UUID, status: Status, version: Int64?, serverRow: SyncRow? = nil) {
        self.mutationID = mutationID
        self.status = status
        self.version = version
        self.serverRow = serverRow
    }
}
