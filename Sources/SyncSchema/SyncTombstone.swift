import Foundation

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
