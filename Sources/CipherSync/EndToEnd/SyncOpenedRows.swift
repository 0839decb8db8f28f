import CipherDB
import Foundation
import SyncEngine
import SyncSchema

/// The rows of a page (or those that waited for their key) as the device
/// stages them: the rows of end-to-end tables opened, or else kept as the
/// device has them, each refusal named. A row the device holds no key of
/// waits for it once merged (``CipherDB/Database/stageSyncRowWaitingForKey(_:)``),
/// until a merge brings a later state of it.
///
/// Made in two steps, so that a page is opened while the previous one is
/// written:
///
/// ```swift
/// let opening = SyncOpenedRows.Opening(page.rows, schema: schema, opener: opener)    // no database
/// try await writer.write { db in
///     let opened = try SyncOpenedRows(opening, in: db)   // older values refused, keyless rows kept waiting
///     try db.stageSyncPage(rows: opened.rows, sealed: opened.sealed, tombstones: [], kept: opened.kept, schema: schema)
/// }
/// ```
struct SyncOpenedRows {
    var rows: [SyncServerRow] = []
    /// Of each of ``rows``, the counter of the sealed value it was opened
    /// from; nil for a row of a table in the clear.
    var sealed: [SyncSealedCounter?] = []
    var kept: [SyncKeptRow] = []
    var refused: [SyncRowRefusal] = []

    /// The rows received, those of end-to-end tables opened: the work of
    /// a page that needs no database.
    struct Opening: Sendable {
        let received: [SyncServerRow]
        /// Of each of ``received``, whether its table is end-to-end.
        let isEndToEnd: [Bool]
        /// Of the rows of end-to-end tables, in order; nil without an
        /// opener, when the declaration has no such table.
        let opened: [Result<SyncOpenedRow, SyncRowRefusal>]?

        init(_ received: [SyncServerRow], schema: SyncSchema, opener: (any SyncRowOpener)?) {
            self.received = received
            guard let opener else {
                (isEndToEnd, opened) = ([], nil)
                return
            }
            // A page's rows come table by table: each table looked up once.
            var last: (table: String, isEndToEnd: Bool)?
            isEndToEnd = received.map { server in
                if let last, last.table == server.row.table { return last.isEndToEnd }
                let isEndToEnd = schema.table(server.row.table)?.isEndToEnd == true
                last = (server.row.table, isEndToEnd)
                return isEndToEnd
            }
            opened = opener.open(zip(received, isEndToEnd).compactMap { $1 ? $0 : nil })
        }
    }

    /// In the caller's write transaction, which stages the rows: a value
    /// older than the one the device took before for its row (or, with
    /// `includingStaged`, than one staged by an earlier page of the
    /// pull) is refused as replayed.
    init(_ opening: Opening, includingStaged: Bool = false, in db: Database) throws {
        guard let opened = opening.opened else {
            rows = opening.received
            return
        }
        rows.reserveCapacity(opening.received.count)
        sealed.reserveCapacity(opening.received.count)
        var checked = try db.refusingReplayedSyncRows(opened, includingStaged: includingStaged).makeIterator()
        for (index, server) in opening.received.enumerated() {
            guard opening.isEndToEnd[index] else {
                rows.append(server)
                sealed.append(nil)
                continue
            }
            switch checked.next() {
            case .success(let row)?:
                rows.append(row.server)
                sealed.append(row.sealed)
            case .failure(let refusal)?:
                let waits = if case .noKey = refusal { true } else { false }
                if waits { try db.stageSyncRowWaitingForKey(server) }
                kept.append(SyncKeptRow(table: server.row.table, id: server.row.id, version: server.version, index: index,
                                        waitsForKey: waits))
                refused.append(refusal)
            case nil:
                throw SyncEngineError.endToEndWithoutSealing(server.row.table)
            }
        }
    }
}

extension Database {
    /// `opened`, with each row refused as replayed whose sealed counter
    /// does not follow the one the device took before for it
    /// (``SyncEngine/SyncSealedCounter/mayFollow(_:)``), or an earlier one
    /// of `opened`; with `includingStaged`, the counters staged by the
    /// earlier pages of a pull come before the merged ones.
    func refusingReplayedSyncRows(_ opened: [Result<SyncOpenedRow, SyncRowRefusal>],
                                  includingStaged: Bool = false) throws -> [Result<SyncOpenedRow, SyncRowRefusal>] {
        var indicesByTable: [String: [Int]] = [:]
        for (index, result) in opened.enumerated() {
            if case .success(let row) = result { indicesByTable[row.server.row.table, default: []].append(index) }
        }
        var checked = opened
        for (table, indices) in indicesByTable {
            let ids = indices.compactMap { index in try? opened[index].get().server.row.id }
            var seen = try syncSealedCounters(table: table, ids: ids, includingStaged: includingStaged)
            seen.reserveCapacity(seen.count + ids.count)
            for (index, id) in zip(indices, ids) {
                guard case .success(let row) = opened[index] else { continue }
                if let before = seen[id], !row.sealed.mayFollow(before) {
                    checked[index] = .failure(.replayed(table: table, id: id))
                } else {
                    seen[id] = row.sealed
                }
            }
        }
        return checked
    }
}

extension SyncEngineStore {
    /// Opens and merges the rows that waited for a key the device now
    /// holds, in one write transaction that leaves the cursor as it is
    /// (their versions are behind it): after a key exchange that brought
    /// keys. Returns how many were merged, and those that the keys opened
    /// but the device refuses (altered, replayed…), which wait still, as
    /// those whose key has not come.
    func mergeRowsWaitingForKeys() async throws -> (merged: Int, refused: [SyncRowRefusal]) {
        guard let endToEnd else { return (0, []) }
        let schema = schema
        return try await writer.write { db in
            let waiting = try db.syncRowsWaitingForKeys(schema: schema)
            guard !waiting.isEmpty else { return (0, []) }
            try db.prepareSyncStaging(schema: schema)
            // Those still without a key wait again; the others are merged
            // and leave the waiting rows, but those whose parent waits.
            let opened = try SyncOpenedRows(.init(waiting, schema: schema, opener: endToEnd.opener(in: db)), in: db)
            let refused = opened.refused.filter { if case .noKey = $0 { false } else { true } }
            guard !opened.rows.isEmpty else { return (0, refused) }
            try db.stageSyncPage(rows: opened.rows, sealed: opened.sealed, tombstones: [], schema: schema)
            let counts = try db.mergeStagedSyncChanges(schema: schema, isSnapshot: false)
            return (counts.inserted + counts.updated, refused)
        }
    }
}
