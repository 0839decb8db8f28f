import Foundation
import Hummingbird
import SyncSchema
import SyncServer

/// The sync engine's endpoints, for the server's declared tables
/// (Players', or exactly those of `players-server --schema FILE`):
/// `GET /v1/sync/rows` and `POST /v1/sync/changes` (Docs/SyncProtocol.md).
extension SyncServerAPI {
    static let syncRowsPath = "/v1/sync/rows"

    /// `GET /v1/sync/rows`: a page of the snapshot of the declared tables
    /// (those `tables` names, or every one), or, with `since`, a page of
    /// the delta after that cursor (410
    /// when the cursor is too old, or of another history); with `wait`, an
    /// empty delta is held until a change is committed or the wait ends
    /// (``holdLongPoll(seconds:empty:read:)``).
    @Sendable func listSyncRows(_ request: Request, _ context: SyncRequestContext) async throws -> SyncJSONAnswer {
        let path = Self.syncRowsPath
        switch try SyncRowsQuery(request.uri.queryParameters, schema: engine.schema, configuration: configuration) {
        case let .snapshot(limit, after, at, tables):
            if let at { try checkHistory(of: at, context) }
            let read = try await engine.snapshot(after: after, limit: limit + 1, tables: tables, for: context.user)
            // Every page of a snapshot carries its first page's cursor, and
            // leaves out the rows changed since, which the delta after that
            // cursor brings.
            let counter = at?.counter ?? read.counter
            let cursor = engine.history.cursor(at: counter, for: context.user)
            let isLast = read.rows.count <= limit
            let rows = Array(read.rows.prefix(limit))
            let tablesParameter = tables.map { "&tables=\($0.queryValue)" } ?? ""
            let next = isLast ? nil : rows.last.map {
                "\(path)?limit=\(limit)&after=\($0.key.table).\($0.key.id.uuidString)&at=\(cursor)\(tablesParameter)"
            }
            let page = SyncStoredPage(rows: rows.filter { $0.version <= counter }, counter: counter)
            let (serverRows, _) = try page.messageParts(schema: engine.schema)
            // The digests are the store's at its counter: the last page
            // carries them when that is the snapshot's cursor (else the
            // delta after it does).
            let digests = isLast && read.counter == counter ? read.digests(of: tables) : nil
            // What the page holds depends on the rows after `after` at the
            // store's counter: both are in the tag.
            return SyncJSONAnswer(body: SyncPage(
                kind: .snapshot, isComplete: isLast, cursor: cursor.description, next: next, rows: serverRows, tombstones: [],
                epochs: engine.history.epochs, digests: digests).jsonData(),
                etag: "\"snapshot-\(after.map { "\($0.table).\($0.id.uuidString)" } ?? "")-\(limit)-\(cursor)-\(read.counter)\(tablesParameter)\"")
        case let .delta(since, limit, wait, tables):
            try checkHistory(of: since, context)
            try await purgeTombstonesIfDue()
            // One read and one answer for the requests that ask for the
            // same delta together, with the same rights (SharedDeltaReads).
            let reads = sharedDeltaReads
            let user = context.user
            let readDelta = { () async throws -> SharedDelta in
                guard let delta = try await reads.delta(since: since.counter, limit: limit, tables: tables, for: user) else {
                    throw APIError.gone(.forgotten)
                }
                return delta
            }
            var delta = try await readDelta()
            if delta.isEmpty, wait > 0 {
                // Held no longer than the token is valid: then 401, and
                // the client comes back with a new one.
                let held = context.identity.map { min(wait, max(0, Int($0.expiresAt.timeIntervalSinceNow.rounded(.down)))) } ?? wait
                delta = try await holdLongPoll(seconds: held, empty: delta, for: user, read: readDelta)
                if delta.isEmpty, held < wait {
                    metrics.tokenRefused(.expired)
                    throw APIError.tokenRefused(.expired)
                }
            }
            return delta.answer
        }
    }

    /// `POST /v1/sync/changes`: applies a device's batch of changes in one
    /// transaction; 200 with one result per change, 400 for a batch that
    /// the server's declaration refuses, 409 for a mutation id already
    /// used for another change, 412 for a batch that names another server
    /// database (then nothing of it is applied).
    @Sendable func applySyncChanges(_ request: Request, _ context: SyncRequestContext) async throws -> SyncJSONAnswer {
        let data = try await body(request, upTo: configuration.maximumChangesBodySize)
        let batch: SyncChangeBatch
        do {
            batch = try SyncChangeBatch.decode(data, schema: engine.schema)
        } catch {
            throw APIError.badRequest(error.description)
        }
        if let server = batch.server, server != engine.history.server {
            throw APIError(.preconditionFailed,
                           "this server's database is \(engine.history.server.uuidString), not \(server.uuidString), which the client synced with")
        }
        do {
            // Each change checked against the user's rights in the write's
            // transaction: a refused one is answered `refused` with its
            // reason, and never blocks the others.
            let results = try await engine.apply(SyncWrite(batch.changes, by: context.user), at: Date()) ?? []
            return SyncJSONAnswer(body: SyncChangeResults(results: results).jsonData())
        } catch let error as SyncChangeError {
            switch error {
            case .mutationIDReused: throw APIError(.conflict, error.description)
            case .unknownTable, .incompleteRow: throw APIError.badRequest(error.description)
            case .storedRowRefused, .storedRowDamaged, .storedAnswerDamaged: throw error
            }
        }
    }
}
