import Foundation
import SyncEngine
import SyncSchema

/// What one sync did: the counts of its merge, the cursors, the bytes and
/// the time. Encoded with every field in every outcome (`null` for a
/// cursor there is none of), so that a program reading it meets one shape.
public struct SyncReport: Codable, Equatable, Sendable, CustomStringConvertible {
    /// `snapshot` or `delta` (a `304` answers a delta request).
    public var kind: SyncKind
    /// The server answered `304 Not Modified`: nothing to merge.
    public var upToDate: Bool
    /// Nothing was written (`--dry-run`).
    public var dryRun: Bool
    public var inserted: Int
    public var updated: Int
    public var deleted: Int
    public var unchanged: Int
    /// Local data that the server lost, queued to be pushed again
    /// (``SyncCounts/requeued``).
    public var requeued: Int
    /// The rows of end-to-end tables that the device refused, or holds no
    /// key to open yet (``SyncCounts/refused``): each keeps its earlier
    /// value.
    public var refusedRows: [SyncRefusedRow]
    /// How the server's history differed from the stored cursor's, when
    /// the sync found it so; nil otherwise.
    public var historyChange: SyncHistoryChange?
    /// The store's synced data differed from the server's digests at the
    /// same cursor, and a snapshot repaired it: the digests of the tables
    /// that differed, the store's and the server's; nil otherwise.
    public var repaired: SyncDivergence?
    public var cursorBefore: String?
    /// The cursor stored after the merge; in a dry run, the one the merge
    /// would store (the server's cursor of the answer), although nothing
    /// is written.
    public var cursorAfter: String?
    /// The pages fetched, the catch-up delta of a snapshot included.
    public var pages: Int
    public var bytesReceived: Int
    public var durationSeconds: Double

    public init(kind: SyncKind, upToDate: Bool, dryRun: Bool, counts: SyncCounts, historyChange: SyncHistoryChange? = nil,
                repaired: SyncDivergence? = nil, cursorBefore: String?, cursorAfter: String?, pages: Int, bytesReceived: Int,
                durationSeconds: Double) {
        self.kind = kind
        self.upToDate = upToDate
        self.dryRun = dryRun
        inserted = counts.inserted
        updated = counts.updated
        deleted = counts.deleted
        unchanged = counts.unchanged
        requeued = counts.requeued
        refusedRows = counts.refusedRows
        self.historyChange = historyChange
        self.repaired = repaired
        self.cursorBefore = cursorBefore
        self.cursorAfter = cursorAfter
        self.pages = pages
        self.bytesReceived = bytesReceived
        self.durationSeconds = durationSeconds
    }

    /// Every field, `null` included.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(upToDate, forKey: .upToDate)
        try container.encode(dryRun, forKey: .dryRun)
        try container.encode(inserted, forKey: .inserted)
        try container.encode(updated, forKey: .updated)
        try container.encode(deleted, forKey: .deleted)
        try container.encode(unchanged, forKey: .unchanged)
        try container.encode(requeued, forKey: .requeued)
        try container.encode(refusedRows, forKey: .refusedRows)
        try container.encode(historyChange, forKey: .historyChange)
        try container.encode(repaired, forKey: .repaired)
        try container.encode(cursorBefore, forKey: .cursorBefore)
        try container.encode(cursorAfter, forKey: .cursorAfter)
        try container.encode(pages, forKey: .pages)
        try container.encode(bytesReceived, forKey: .bytesReceived)
        try container.encode(durationSeconds, forKey: .durationSeconds)
    }

    public var counts: SyncCounts {
        SyncCounts(inserted: inserted, updated: updated, deleted: deleted, unchanged: unchanged, requeued: requeued, refusedRows: refusedRows)
    }

    /// One line: `+12 ~3 -1, cursor 4815` (the cursor's counter:
    /// ``SyncSchema/SyncCursor/shown(_:)``).
    public var description: String {
        let cursor = SyncCursor.shown(cursorAfter)
        if upToDate { return "up to date, cursor \(cursor)" }
        let refusals = refusedRows.isEmpty ? "" : ", \(refusedRows.count) rows refused"
        return "+\(inserted) ~\(updated) -\(deleted)\(refusals), cursor \(cursor)\(dryRun ? " (dry run: nothing written)" : "")"
    }
}
