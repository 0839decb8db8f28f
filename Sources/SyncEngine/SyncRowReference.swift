import Foundation

/// One row of a synced table, by its table and primary key: what the
/// replicator's per-row events name (``CipherSync/SyncEvent``).
///
/// ```swift
/// let row = SyncRowReference(table: "note", id: noteID)
/// print(row)   // note 3F2504E0-4F89-11D3-9A0C-0305E82C3301
/// ```
public struct SyncRowReference: Sendable, Hashable, CustomStringConvertible {
    public var table: String
    public var id: UUID

    public init(table: String, id: UUID) {
        self.table = table
        self.id = id
    }

    public var description: String { "\(table) \(id.uuidString)" }
}
