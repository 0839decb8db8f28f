import CipherDB
import CipherSync
import Foundation
import SyncSchema

/// The pages of one pull of the engine, staged in each table's
/// `sync_stage_NAME` until ``merge(_:from:dryRun:)`` merges them all
/// (``CipherDB/Database/mergeStagedSyncChanges(schema:isSnapshot:wentBackTo:at:)``).
public struct SyncEngineStaging: SyncStaging {
    let writer: any DatabaseWriter
    let schema: SyncSchema

    public func stage(_ page: SyncPulledPage, number: Int, isCatchUp: Bool) async throws {
        let schema = schema
        try await writer.write { db in try db.stageSyncPage(rows: page.page.rows, tombstones: page.page.tombstones, schema: schema) }
    }

    /// Merges the staged pages and stores the position, in one write
    /// transaction; a dry run rolls it back and only counts.
    public func merge(_ fetch: StagedFetch, from endpoint: URL, dryRun: Bool) async throws -> SyncCounts {
        // A server restored from a backup lost what this device synced
        // after the point both histories share: the merge keeps it.
        let wentBackTo: Int64?? = fetch.historyChange == .wentBack ? .some(fetch.sharedCounter) : .none
        let schema = schema
        return try await writer.writeWithoutTransaction { db in
            var counts = SyncMergeCounts()
            try db.inTransaction(.immediate) {
                counts = try db.mergeStagedSyncChanges(schema: schema, isSnapshot: fetch.kind == .snapshot, wentBackTo: wentBackTo)
                guard !dryRun else { return .rollback }
                try db.execute(sql: "UPDATE \(SyncEngine.stateTable) SET endpoint = ?, cursor = ?, etag = ? WHERE id = 1",
                               arguments: [endpoint.absoluteString, fetch.cursor, fetch.etag])
                return .commit
            }
            return SyncCounts(inserted: counts.inserted, updated: counts.updated, deleted: counts.deleted, unchanged: counts.unchanged,
                              requeued: counts.requeued)
        }
    }

    /// Empties the staging; it never fails.
    public func discard() async {
        let schema = schema
        _ = try? await writer.write { db in try db.prepareSyncStaging(schema: schema) }
    }
}
