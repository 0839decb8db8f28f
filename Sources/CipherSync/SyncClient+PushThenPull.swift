import Foundation
import SyncEngine
import SyncSchema

extension SyncClient where Store == SyncEngineStore {
    /// Pushes the outbox (``SyncEnginePusher``), then pulls the server's
    /// rows (``sync(full:dryRun:)``): after it, the database holds the
    /// server's state, its own changes included, and the changes that lost
    /// are in its conflicts. A dry run sends no change and writes nothing.
    /// The push and the pull's fetching share one ``maximumDuration``; the
    /// push names the server of the stored cursor unless
    /// ``allowsOtherServer``.
    ///
    /// ```swift
    /// let store = SyncEngineStore(dbQueue, schema: schema)
    /// let client = SyncClient(transport: CurlTransport(), endpoint: store.rowsEndpoint(baseURL: url), store: store)
    /// let report = try await client.pushThenPull()
    /// print(report.push.counts.applied, report.pull.inserted)
    /// ```
    ///
    /// A device with an identity (end-to-end tables) publishes its key
    /// first (``publishIdentity()``): refused, it pushes and pulls nothing.
    /// With end-to-end tables (``SyncEngineStore/endToEnd``), keys come
    /// before rows: the sync exchanges keys before the push (and merges
    /// the rows that waited for a key it now holds), and again after it,
    /// to wrap the keys of the groups the push created
    /// (``SyncPushPullReport/keys``).
    ///
    /// When the pull queues rows (the server's history went back, or rows
    /// the server never got: ``CipherSync/SyncCounts/requeued``), this
    /// pushes them at once, to the server it pulled from.
    public func pushThenPull(full: Bool = false, dryRun: Bool = false) async throws -> SyncPushPullReport {
        let start = SyncStopwatch(clock)
        try store.checkEndToEnd()
        var keys = SyncKeyExchangeReport()
        if !dryRun {
            try await withinDeadline(from: start) { [self] in try await publishIdentity() }
            keys += try await exchangeKeys(startedAt: start)
        }
        var pusher = SyncEnginePusher(store.writer, schema: store.schema, endpoint: changesEndpoint, transport: transport)
        pusher.allowsOtherServer = allowsOtherServer
        pusher.onProgress = onPushProgress
        pusher.endToEnd = store.endToEnd
        var push = try await withinDeadline(from: start) { [pusher] in try await pusher.push(dryRun: dryRun) }
        if !dryRun, push.counts.applied > 0 { keys += try await exchangeKeys(startedAt: start) }
        let pull = try await sync(full: full, dryRun: dryRun, startedAt: start)
        if pull.requeued > 0, !dryRun {
            // The stored cursor now names the server pulled from.
            pusher.allowsOtherServer = false
            push += try await withinDeadline(from: start) { [pusher] in try await pusher.push() }
        }
        // A server of another history may lack the keys: wrapped again.
        if pull.historyChange != nil, !dryRun { keys += try await exchangeKeys(startedAt: start) }
        return SyncPushPullReport(push: push, pull: pull, keys: keys)
    }

    /// The store's key exchange (``SyncEndToEndCodec/exchangeKeys(with:in:)``)
    /// with the server's key directory, then the merge of the rows that
    /// waited for the keys it brought; nothing without end-to-end tables.
    private func exchangeKeys(startedAt start: SyncStopwatch) async throws -> SyncKeyExchangeReport {
        guard let endToEnd = store.endToEnd else { return SyncKeyExchangeReport() }
        let directory = keyDirectory
        let writer = store.writer
        var report = try await withinDeadline(from: start) { try await endToEnd.exchangeKeys(with: directory, in: writer) }
        if report.received > 0 {
            let waited = try await store.mergeRowsWaitingForKeys()
            report.opened = waited.merged
            report.refusedRows += waited.refused.map(SyncRefusedRow.init)
        }
        return report
    }

    /// `/v1/sync/changes`, next to the endpoint's `/v1/sync/rows`.
    var changesEndpoint: URL { endpoint(beside: "changes") }

    /// A path of the API relative to the endpoint's `/v1/sync/rows`, as a
    /// relative reference resolves (`changes`: `/v1/sync/changes`;
    /// `../keys/identity`: `/v1/keys/identity`), without the endpoint's
    /// query: under whatever prefix the server's URL has.
    func endpoint(beside path: String) -> URL {
        URL(string: path, relativeTo: endpoint)!.absoluteURL
    }
}
