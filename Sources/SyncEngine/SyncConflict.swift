import CipherDB
import Foundation
import SyncSchema

/// A local change that lost to the server's state, kept with both values:
/// a row of `sync_conflict`, written when the server's answer is recorded
/// (``CipherDB/Database/recordSyncPushResults(_:for:schema:at:)``), and
/// settled by ``CipherDB/Database/resolveSyncConflicts(table:rowID:keepLocal:schema:)``.
///
/// ```swift
/// let conflicts = try dbQueue.read { db in try SyncConflict.fetchAll(db) }
/// conflicts.first?.localValues   // ["title": .text("Mine")]
/// ```
public struct SyncConflict: Sendable, Equatable, FetchableRecord, TableRecord {
    public static let databaseTableName = SyncEngine.conflictTable

    public var id: Int64
    public var table: String
    public var rowID: UUID
    /// The local values of the columns that differed from the server's;
    /// every column of the local row when the server deleted it (so that
    /// keeping it brings it back); nil when the row was deleted locally.
    public var localValues: [String: SyncJSONScalar]?
    /// The server's row; nil when it is deleted on the server.
    public var serverValues: [String: SyncJSONScalar]?
    public var serverVersion: Int64?
    /// When the local change was made.
    public var changedAt: Date
    public var detectedAt: Date
    /// Why the server refused the change (a server of signed identities:
    /// the user may not make it); nil for a change that lost to another.
    /// Settled as a conflict is: keeping the local value pushes it again.
    public var refusal: String?

    public init(row: Row) throws {
        id = row["id"]
        table = row["table_name"]
        guard let rowID = UUID.fromDatabaseValue(row["row_id"]) else {
            throw SyncRowError.invalidID(table: row["table_name"], (row["row_id"] as DatabaseValue).description)
        }
        self.rowID = rowID
        localValues = try (row["local_values"] as String?).map(Self.values)
        serverValues = try (row["server_values"] as String?).map(Self.values)
        serverVersion = row["server_version"]
        changedAt = Date(timeIntervalSince1970: row["changed_at"])
        detectedAt = Date(timeIntervalSince1970: row["detected_at"])
        // Absent from a database made before refusals, until one is kept.
        refusal = row.hasColumn("refusal") ? row["refusal"] : nil
    }

    private static func values(_ json: String) throws -> [String: SyncJSONScalar] {
        try SyncStoredJSON.row(from: json).values
    }
}
