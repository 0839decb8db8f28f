import CipherSync
import Foundation
import Players
import PlayersProtocol
import SyncEngine
import SyncSchema

/// Pushes the outbox of a players database (``PendingChange``) to a
/// server's `POST /v1/changes`, batch after batch, until it is empty
/// (Docs/SyncProtocol.md).
///
/// Each batch is marked sent before it goes out, and its answers are
/// recorded in one transaction that also removes its entries: a crash or a
/// lost answer at any point leaves the entries in the outbox, and the next
/// push sends them again with the same mutation ids, which the server
/// applies once.
///
/// ```swift
/// let pusher = ChangePusher(appDatabase, baseURL: URL(string: "http://127.0.0.1:8080")!, transport: CurlTransport())
/// let report = try await pusher.push()
/// print(report.counts.applied, report.counts.conflicts)
/// ```
public struct ChangePusher: Sendable {
    public let appDatabase: AppDatabase
    /// The server's `/v1/changes`.
    public let endpoint: URL
    public let transport: any HTTPTransport
    /// The most changes one request carries.
    public var maximumChanges = PlayersChangeBatch.maximumChanges
    /// The server database that the changes are meant for (the one the
    /// stored cursor names), sent with every batch: a server of another
    /// identity refuses them (412, ``SyncError/otherServer``). Nil: any.
    public var expectedServer: UUID?

    public init(_ appDatabase: AppDatabase, baseURL: URL, transport: any HTTPTransport) {
        self.init(appDatabase, changesEndpoint: AppDatabase.changesEndpoint(baseURL: baseURL), transport: transport)
    }

    init(_ appDatabase: AppDatabase, changesEndpoint: URL, transport: any HTTPTransport) {
        self.appDatabase = appDatabase
        self.endpoint = changesEndpoint
        self.transport = transport
    }

    /// Pushes every pending change; in a dry run, counts them and sends
    /// nothing. Either way, the report counts the changes that were
    /// waiting (``SyncEngine/SyncPushReport/pending``).
    public func push(dryRun: Bool = false) async throws -> SyncPushReport {
        let pending = try appDatabase.pendingChangeCount()
        if dryRun || pending == 0 {
            return SyncPushReport(pending: pending)
        }
        var report = SyncPushReport(pending: pending)
        var previousBatch: PlayersChangeBatch?
        while var batch = try appDatabase.nextPushBatch(maximumChanges: maximumChanges) {
            batch.server = expectedServer
            // Each answered batch leaves the outbox: the same batch twice
            // means another process is recording the answers.
            guard batch != previousBatch else { break }
            previousBatch = batch
            let response = try await transport.send(HTTPRequest(
                method: "POST", url: endpoint,
                headers: ["Content-Type": "application/json", "Accept": "application/json"],
                body: try batch.jsonData(),
                // The server applies a mutation id once.
                isIdempotent: true))
            report.bytesReceived += response.bytesReceived
            guard response.status == 200 else { throw SyncClient<PlayersSyncStore>.error(for: response) }
            let results: PlayersChangeResults
            do {
                results = try PlayersChangeResults.decode(response.body, answering: batch)
            } catch {
                throw SyncPayloadError(path: error.path, error.message)
            }
            report.counts += try appDatabase.recordPushResults(results, for: batch)
            report.batches += 1
        }
        return report
    }
}
