/// A page of a delta.
public struct DeltaPage: Sendable, Equatable {
    public enum Change: Sendable, Equatable {
        case player(ServerPlayer)
        case tombstone(ServerTombstone)
    }

    /// The cursor after this page.
    public var version: Int64
    /// The counter when the page was read, in the same transaction.
    public var serverVersion: Int64
    public var changes: [Change]
    public var isLast: Bool

    public init(version: Int64, serverVersion: Int64, changes: [Change], isLast: Bool) {
        self.version = version
        self.serverVersion = serverVersion
        self.changes = changes
        self.isLast = isLast
    }
}
