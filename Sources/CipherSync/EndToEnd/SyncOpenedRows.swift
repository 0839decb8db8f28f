import CipherDB
import SyncEngine
import SyncSchema

/// The rows of a page (or those that waited for their key) as the device
/// stages them: the rows of end-to-end tables opened, or else kept as the
/// device has them, each refusal named. A row the device holds no key of
/// waits for it once merged (``CipherDB/Database/stageSyncRowWaitingForKey(_:)``),
/// until a merge brings a later state of it.
struct SyncOpenedRows {
    var rows: [SyncServerRow] = []
    /// Of each of ``rows``, the counter of the sealed value it was opened
    /// from; nil for a row of a table in the clear.
    var sealed: [SyncSealedCounter?] = []
    var kept: [SyncKeptRow] = []
    var refused: [SyncRowRefusal] = []

    /// In the caller's write transaction, which stages them.
    init(_ received: [SyncServerRow], schema: SyncSchema, endToEnd: (any SyncEndToEndCodec)?, in db: Database) throws {
        guard let endToEnd else {
            rows = received
            return
        }
        rows.reserveCapacity(received.count)
        sealed.reserveCapacity(received.count)
        let endToEndRows = received.filter { schema.table($0.row.table)?.isEndToEnd == true }
        var opened = try endToEnd.open(endToEndRows, in: db).makeIterator()
        for (index, server) in received.enumerated() {
            guard schema.table(server.row.table)?.isEndToEnd == true else {
                rows.append(server)
                sealed.append(nil)
                continue
            }
            switch opened.next() {
            case .success(let row)?:
                rows.append(row.server)
                sealed.append(row.sealed)
            case .failure(let refusal)?:
                if case .noKey = refusal { try db.stageSyncRowWaitingForKey(server) }
                kept.append(SyncKeptRow(table: server.row.table, id: server.row.id, version: server.version, index: index))
                refused.append(refusal)
            case nil:
                throw SyncEngineError.endToEndWithoutSealing(server.row.table)
            }
        }
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
            let opened = try SyncOpenedRows(waiting, schema: schema, endToEnd: endToEnd, in: db)
            let refused = opened.refused.filter { if case .noKey = $0 { false } else { true } }
            guard !opened.rows.isEmpty else { return (0, refused) }
            try db.stageSyncPage(rows: opened.rows, sealed: opened.sealed, tombstones: [], schema: schema)
            let counts = try db.mergeStagedSyncChanges(schema: schema, isSnapshot: false)
            return (counts.inserted + counts.updated, refused)
        }
    }
}
