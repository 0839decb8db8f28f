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
        /// The user may not make this change (a server of signed
        /// identities: the table's access): nothing of it was written, and
        /// the server's row stands (``SyncPushResult/refusal`` says why).
        case refused
    }

    public var mutationID: UUID
    public var status: Status
    /// Applied: the version the change gave the row (a delete: its
    /// tombstone's); absent for the delete of a row the server had already
    /// forgotten. Conflict: the server's version of the row.
    public var version: Int64?
    /// Conflict: the server's row, after whatever of the change it could
    /// merge (a table merged by column applies the columns no one else
    /// changed); refused: the server's row as it stands; nil when the row
    /// is deleted on the server, or never was there.
    public var serverRow: SyncRow?
    /// Refused: why, in a sentence that says what to do.
    public var refusal: String?

    public init(mutationID: UUID, status: Status, version: Int64?, serverRow: SyncRow? = nil, refusal: String? = nil) {
        self.mutationID = mutationID
        self.status = status
        self.version = version
        self.serverRow = serverRow
        self.refusal = refusal
    }
}
