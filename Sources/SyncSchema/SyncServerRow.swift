import Foundation

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
