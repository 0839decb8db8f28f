/// The type of a synced column, as both sides store and send it.
public enum SyncColumnType: String, Sendable, Equatable, Codable, CaseIterable {
    /// A UUID, made on the device: primary keys and references.
    case uuid
    /// Text, bounded by the column's `maximumLength`.
    case text
    /// A 64-bit integer, within the column's `minimum` and `maximum`.
    case integer
    /// A 64-bit floating-point number, finite.
    case real
    /// True or false.
    case boolean
}
