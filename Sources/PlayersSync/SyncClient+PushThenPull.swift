import CipherSync
import Foundation
import PlayersProtocol
import SyncEngine

extension SyncClient where Store == PlayersSyncStore {
    /// Pushes the local changes (``ChangePusher``), then pulls the server's
    /// (``sync(full:dryRun:)``): after it, the database holds the server's
    /// state, its own changes included, and the changes that lost are in
    /// its conflicts. A dry run sends no change and writes nothing. The
    /// push and the pull's fetching share one ``maximumDuration``.
    ///
    /// ```swift
    /// let report = try await appDatabase.syncClient(baseURL: url, transport: CurlTransport()).pushThenPull()
    /// print(report) // pushed 2, +12 ~3 -1, conflicts 0, cursor 4815
    /// ```
    ///
    /// When the server's history went back (it was restored from a
    /// backup), the pull queues what the server lost
    /// (``SyncCounts/requeued``), and this pushes it at once.
    public func pushThenPull(full: Bool = false, dryRun: Bool = false) async throws -> PlayersSyncReport {
        let start = SyncStopwatch(clock)
        var pusher = ChangePusher(store.appDatabase, changesEndpoint: changesEndpoint, transport: transport)
        if !allowsOtherServer {
            let cursor = try await store.syncPosition().cursor
            pusher.expectedServer = cursor.flatMap { try? PlayersCursor($0).server }
        }
        var push = try await withinDeadline(from: start) { [pusher] in try await pusher.push(dryRun: dryRun) }
        let pull = try await sync(full: full, dryRun: dryRun, startedAt: start)
        if pull.requeued > 0, !dryRun {
            pusher.expectedServer = pull.cursorAfter.flatMap { try? PlayersCursor($0).server }
            push += try await withinDeadline(from: start) { [pusher] in try await pusher.push() }
        }
        return PlayersSyncReport(push: push, pull: pull)
    }

    /// `/v1/changes`, next to the endpoint's `/v1/players`.
    var changesEndpoint: URL {
        endpoint.deletingLastPathComponent().appendingPathComponent("changes")
    }
}
