import CipherDB
import Foundation
import SyncEngine
import SyncSchema

/// The pages of one pull of the engine, staged in each table's
/// `sync_stage_NAME` until ``merge(_:from:dryRun:)`` merges them all
/// (``CipherDB/Database/mergeStagedSyncChanges(schema:isSnapshot:wentBackTo:at:)``).
public struct SyncEngineStaging: SyncStaging {
    let writer: any DatabaseWriter
    let schema: SyncSchema
    let mergeProgress: SyncMergeProgress?
    let beforeCommit: (@Sendable (Database) throws -> Void)?
    let onRowsRemoved: (@Sendable ([SyncRowReference]) -> Void)?
    /// Opens the pages' rows of end-to-end tables, with the keys the
    /// device held when the pull began; nil for a declaration without.
    let opener: (any SyncRowOpener)?
    /// The rows of end-to-end tables refused by the pages staged so far.
    let refused = SyncRefusals()
    /// Each page is written while the next one is opened, and the one
    /// after fetched.
    let writes = SyncStagingWrites()

    /// Starts opening `page`'s sealed rows, and its write once the
    /// previous page's is done, without waiting for either: its errors
    /// are thrown by a later call, or by ``merge(_:from:dryRun:)``.
    public func stage(_ page: SyncPulledPage, number: Int, isCatchUp: Bool) async throws {
        let (writer, schema, refused, opener) = (writer, schema, refused, opener)
        try await writes.start({ SyncOpenedRows.Opening(page.page.rows, schema: schema, opener: opener) }, then: { opening in
            do {
                let refusals = try await writer.write { db in
                    if number == 1, page.isSnapshot, opening.opened != nil, try Self.isOfAnotherHistory(page, db) {
                        // The counters of another history (a server restored
                        // from a backup) do not order this one's: its values
                        // are taken as the server's (Docs/EndToEnd.md).
                        try db.forgetSyncSealedCounters()
                    }
                    // A delta may bring a row again in a later page: its
                    // value must follow the one staged before.
                    let opened = try SyncOpenedRows(opening, includingStaged: !page.isSnapshot || isCatchUp, in: db)
                    try db.stageSyncPage(rows: opened.rows, sealed: opened.sealed, tombstones: page.page.tombstones, kept: opened.kept,
                                         schema: schema,
                                         refusingRepeats: page.isSnapshot && !isCatchUp)
                    // The last page's digests are the pull's.
                    try db.stageSyncDigests(page.page.digests)
                    return opened.refused
                }
                refused.append(refusals)
            } catch let error as SyncMessageError {
                throw SyncPayloadError(error, page: number)
            }
        })
    }

    /// Whether a snapshot's page is of another server or epoch than the
    /// stored cursor's.
    private static func isOfAnotherHistory(_ page: SyncPulledPage, _ db: Database) throws -> Bool {
        guard let stored = try db.syncPosition().cursor, let known = try? SyncPulledPage.position(ofCursor: stored),
              let cursor = page.cursor, let position = try SyncPulledPage.position(ofCursor: cursor) else { return false }
        return !position.isInHistory(of: known)
    }

    /// Merges the staged pages and stores the position, in one write
    /// transaction; a dry run rolls it back and only counts. When the last
    /// page carried the server's digests, they are stored with the cursor,
    /// the rows the server never sent and no change waits for are queued
    /// (``SyncCounts/requeued``), and the synced rows are compared with them
    /// (``SyncCounts/divergence``).
    public func merge(_ fetch: StagedFetch, from endpoint: URL, dryRun: Bool) async throws -> SyncCounts {
        try await writes.finish()
        // A server restored from a backup lost what this device synced
        // after the point both histories share: the merge keeps it.
        let wentBackTo: Int64?? = fetch.historyChange == .wentBack ? .some(fetch.sharedCounter) : .none
        let (schema, mergeProgress, beforeCommit, listsRemoved) = (schema, mergeProgress, beforeCommit, onRowsRemoved != nil)
        let (counts, removed) = try await writer.writeWithoutTransaction { db in
            var counts = SyncMergeCounts()
            var removed: [SyncRowReference] = []
            var divergence: SyncDivergence?
            try db.withPageCache(kibibytes: SyncEngine.mergePageCacheKiB) {
                try db.inTransaction(.immediate) {
                    counts = try db.mergeStagedSyncChanges(schema: schema, isSnapshot: fetch.kind == .snapshot, wentBackTo: wentBackTo,
                                                           progress: mergeProgress,
                                                           removed: listsRemoved ? { row in removed.append(row) } : nil)
                    guard !dryRun else { return .rollback }
                    try db.execute(sql: "UPDATE \(SyncEngine.stateTable) SET endpoint = ?, cursor = ?, etag = ? WHERE id = 1",
                                   arguments: [endpoint.absoluteString, fetch.cursor, fetch.etag])
                    // Another history may lack the keys stored in this one.
                    if fetch.historyChange != nil { try db.forgetSyncKeyRecipients() }
                    if try db.keepStagedSyncDigests() != nil {
                        counts.requeued += try db.requeueNeverSyncedRows(schema: schema)
                        divergence = try db.syncDigestDivergence(schema: schema, settling: true)
                    }
                    try beforeCommit?(db)
                    return .commit
                }
            }
            let synced = SyncCounts(inserted: counts.inserted, updated: counts.updated, deleted: counts.deleted,
                                    unchanged: counts.unchanged, requeued: counts.requeued, divergence: divergence,
                                    refusedRows: refused.all.map(SyncRefusedRow.init))
            return (synced, dryRun ? [] : removed)
        }
        if !removed.isEmpty { onRowsRemoved?(removed) }
        return counts
    }

    /// Empties the staging; it never fails. A sync cancelled (Ctrl-C)
    /// empties it too: the write runs in a task of its own, which the
    /// cancellation does not reach.
    public func discard() async {
        try? await writes.finish()
        let (writer, schema) = (writer, schema)
        await Task.detached {
            _ = try? await writer.write { db in try db.prepareSyncStaging(schema: schema) }
        }.value
    }
}
