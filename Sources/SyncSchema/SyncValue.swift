import Foundation

/// The value of a synced column in a row.
public enum SyncValue: Sendable, Hashable {
    case null
    case uuid(UUID)
    case text(String)
    case integer(Int64)
    case real(Double)
    case boolean(Bool)
}
