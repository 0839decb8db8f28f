import Foundation
import SyncSchema
import SyncServer

/// A page of the engine's delta, read and encoded once for the requests
/// that share its read (``SharedDeltaReads``), which send its answer as
/// it is.
struct SharedDelta: Sendable {
    /// Whether the page holds no change: a long-poll waits for one.
    var isEmpty: Bool
    /// The store's counter when it was read.
    var counter: Int64
    var answer: SyncJSONAnswer

    /// The delta after `since` (whose history the caller checked), at most
    /// `limit` changes, of `tables` (nil: every one); nil when `since` is
    /// older than the tombstones kept or ahead of the store.
    init?(_ engine: any SyncRowStore, since: Int64, limit: Int, tables: SyncTableFilter?, for user: SyncUser?) async throws {
        guard let read = try await engine.changes(after: since, limit: limit + 1, tables: tables, for: user) else { return nil }
        let isLast = read.rows.count <= limit
        let rows = Array(read.rows.prefix(limit))
        // A page that is not the last ends at its last change; the last
        // one at the store's counter, where its digests were read. A
        // user's empty delta stays at its cursor: the changes they do not
        // read move nothing of theirs, and the same request gets 304.
        let cursor = engine.history.cursor(at: user != nil && rows.isEmpty ? since
                                               : isLast ? read.counter : rows[rows.count - 1].version, for: user)
        let (serverRows, tombstones) = try SyncStoredPage(rows: rows, counter: read.counter).messageParts(schema: engine.schema)
        let path = SyncServerAPI.syncRowsPath
        let tablesParameter = tables.map { "&tables=\($0.queryValue)" } ?? ""
        isEmpty = rows.isEmpty
        counter = read.counter
        // Later changes can move rows out of an older page: the store's
        // counter is part of the tag.
        answer = SyncJSONAnswer(
            body: SyncPage(
                kind: .delta, isComplete: isLast, cursor: cursor.description,
                next: isLast ? nil : "\(path)?since=\(cursor)&limit=\(limit)\(tablesParameter)",
                rows: serverRows, tombstones: tombstones, digests: isLast ? read.digests(of: tables) : nil).jsonData(),
            etag: "\"delta-\(engine.history.cursor(at: since, for: user))-\(limit)-\(cursor)-\(user != nil && rows.isEmpty ? "empty" : String(read.counter))"
                + "\(tables.map { "-\($0.queryValue)" } ?? "")\"")
    }
}
