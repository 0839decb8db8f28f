import Foundation
import SyncSchema

/// A row as the server sends it in a pull: its values, with the version
/// of its last change on the server.
public struct SyncServerRow: Sendable, Equatable {
    public var row: SyncRow
    public var version: Int64

    public init(row: SyncRow, version: Int64) {
        self.row = row
        self.version = version
    }
}

/// A row deleted on the server, with the version of its delete.
public struct SyncTombstone: Sendable, Equatable {
    public var table: String
    public var id: UUID
    public var version: Int64

    public init(table: String, id: UUID, version: Int64) {
        self.table = table
        self.id = id
        self.version = version
    }
}

/// What a merge did.
public struct SyncMergeCounts: Sendable, Equatable {
    public var inserted = 0
    public var updated = 0
    public var deleted = 0
    /// Server rows and tombstones of rows with unsent changes, left for
    /// their push to settle against the server.
    public var leftAlone = 0
    /// Rows deleted by cascade while they had unsent changes, logged.
    public var conflicts = 0

    public init(inserted: Int = 0, updated: Int = 0, deleted: Int = 0, leftAlone: Int = 0, conflicts: Int = 0) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
        self.leftAlone = leftAlone
        self.conflicts = conflicts
    }
}
