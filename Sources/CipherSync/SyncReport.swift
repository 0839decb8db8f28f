import Foundation

/// What one sync did: the counts of its merge, the cursors, the bytes and
/// the time.
public struct SyncReport: Codable, Equatable, Sendable, CustomStringConvertible {
    /// `snapshot` or `delta`; nil when the server answered 304.
    public var kind: SyncKind?
    /// The server answered `304 Not Modified`: nothing to merge.
    public var upToDate: Bool
    /// Nothing was written (`--dry-run`).
    public var dryRun: Bool
    public var inserted: Int
    public var updated: Int
    public var deleted: Int
    public var unchanged: Int
    public var cursorBefore: String?
    public var cursorAfter: String?
    /// The pages fetched, the catch-up delta of a snapshot included.
    public var pages: Int
    public var bytesReceived: Int
    public var durationSeconds: Double

    public init(kind: SyncKind?, upToDate: Bool, dryRun: Bool, counts: SyncCounts,
                cursorBefore: String?, cursorAfter: String?, pages: Int, bytesReceived: Int, durationSeconds: Double) {
        self.kind = kind
        self.upToDate = upToDate
        self.dryRun = dryRun
        inserted = counts.inserted
        updated = counts.updated
        deleted = counts.deleted
        unchanged = counts.unchanged
        self.cursorBefore = cursorBefore
        self.cursorAfter = cursorAfter
        self.pages = pages
        self.bytesReceived = bytesReceived
        self.durationSeconds = durationSeconds
    }

    public var counts: SyncCounts {
        SyncCounts(inserted: inserted, updated: updated, deleted: deleted, unchanged: unchanged)
    }

    /// One line: `+12 ~3 -1, cursor 4815`.
    public var description: String {
        if upToDate { return "up to date, cursor \(cursorAfter ?? "none")" }
        return "+\(inserted) ~\(updated) -\(deleted), cursor \(cursorAfter ?? "none")\(dryRun ? " (dry run: nothing written)" : "")"
    }
}
