import SyncSchema

/// A write of a store: changes applied by the rules (``SyncChangePlan``)
/// in one transaction, a device's push or the server's own writes (a
/// seed, an edit through the HTTP API, the demo's changes).
///
/// ```swift
/// let seeded = try await store.apply(SyncWrite(creations, keepsAnswers: false, requiresNoRowsIn: "player"), at: Date())
/// // nil: the table had rows, and nothing was written
/// ```
public struct SyncWrite: Sendable {
    public var changes: [SyncChange]
    /// Whether the answers are kept by mutation id, so that a retry gets
    /// the same answer: a device's push, which it retries when an answer
    /// is lost. The server's own writes are not retried.
    public var keepsAnswers: Bool
    /// A table that must have no live row, else nothing is written: the
    /// first batch of a seed, which two instances may start at once.
    public var requiresNoRowsIn: String?
    /// The user who writes, under signed identities: each change is checked
    /// against their rights as the write's transaction reads them
    /// (``SyncRights``). Nil for the server's own writes and the shared
    /// token's clients.
    public var user: SyncUser?

    public init(_ changes: [SyncChange], keepsAnswers: Bool = true, requiresNoRowsIn: String? = nil, by user: SyncUser? = nil) {
        self.changes = changes
        self.keepsAnswers = keepsAnswers
        self.requiresNoRowsIn = requiresNoRowsIn
        self.user = user
    }
}
