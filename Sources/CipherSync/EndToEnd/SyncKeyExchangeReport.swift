import SyncSchema

/// What a sync did with the key directory before its push
/// (``SyncEndToEndCodec/exchangeKeys(with:in:)``): the keys it took, made
/// and wrapped, and what it could not do yet.
public struct SyncKeyExchangeReport: Codable, Equatable, Sendable {
    /// Keys wrapped to the device's user that it took.
    public var received = 0
    /// Keys of its partitions that it made.
    public var made = 0
    /// Keys it wrapped to a user and stored on the server.
    public var wrapped = 0
    /// Groups whose key it rotated (a new epoch) because a member left.
    public var rotated = 0
    /// Rows that waited for a key and were opened and merged.
    public var opened = 0
    /// Rows that waited for a key that came, and that the device refuses
    /// once opened (altered, replayed…): they keep waiting, their earlier
    /// value kept.
    public var refusedRows: [SyncRefusedRow] = []
    /// The users a key could not be wrapped to yet: they have published
    /// no identity key (no sync with a recovery key so far).
    public var withoutIdentity: [String] = []
    /// Keys the device refused, each in a sentence: a key that does not
    /// open for it, or from another user than the partition's owner.
    public var refusedKeys: [String] = []

    public init() {}

    /// Two exchanges of one sync as one.
    public static func += (lhs: inout SyncKeyExchangeReport, rhs: SyncKeyExchangeReport) {
        lhs.received += rhs.received
        lhs.made += rhs.made
        lhs.wrapped += rhs.wrapped
        lhs.rotated += rhs.rotated
        lhs.opened += rhs.opened
        lhs.refusedRows += rhs.refusedRows
        lhs.withoutIdentity += rhs.withoutIdentity.filter { !lhs.withoutIdentity.contains($0) }
        lhs.refusedKeys += rhs.refusedKeys
    }
}
