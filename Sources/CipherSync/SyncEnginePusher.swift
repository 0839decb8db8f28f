import CipherDB
import Foundation
import SyncEngine
import SyncSchema

/// Pushes the outbox of an app's database to a server's `POST
/// /v1/sync/changes`, batch after batch, until it is empty
/// (Docs/SyncEngine.md).
///
/// Each batch is marked sent and its values frozen before it goes out
/// (``CipherDB/Database/nextSyncPushBatch(for:maximumChanges:at:)``), and
/// its answers are recorded in one transaction that also removes its
/// entries: a crash or a lost answer at any point leaves the entries in
/// the outbox, and the next push sends them again with the same mutation
/// ids, which the server applies once.
///
/// ```swift
/// let pusher = SyncEnginePusher(dbQueue, schema: schema, baseURL: url, transport: CurlTransport())
/// let report = try await pusher.push()
/// print(report.counts.applied, report.counts.conflicts)
/// ```
public struct SyncEnginePusher: Sendable {
    public let writer: any DatabaseWriter
    public let schema: SyncSchema
    /// The server's `/v1/sync/changes`.
    public let endpoint: URL
    public let transport: any HTTPTransport
    /// The most changes one request carries.
    public var maximumChanges = SyncChangeBatch.maximumChanges
    /// The largest body sent, in bytes: the server's limit (16 MiB). A
    /// batch past it goes out in halves; the changes left wait for the
    /// next request, with the values they were first sent with.
    public var maximumBodyBytes = 16 * 1024 * 1024
    /// Whether the batches may reach a server of another database than the
    /// one the stored cursor names. By default each batch names that one,
    /// and another server refuses it (412, ``CipherSync/SyncError/otherServer``).
    public var allowsOtherServer = false
    /// Told the changes whose answers are recorded so far and the changes
    /// waiting when the push began: once before the first batch, then
    /// after each. Default: nil.
    public var onProgress: (@Sendable (_ answered: Int, _ pending: Int) -> Void)?

    public init(_ writer: any DatabaseWriter, schema: SyncSchema, baseURL: URL, transport: any HTTPTransport) {
        self.init(writer, schema: schema, endpoint: Self.changesEndpoint(baseURL: baseURL), transport: transport)
    }

    /// The server's `POST /v1/sync/changes`.
    public static func changesEndpoint(baseURL: URL) -> URL {
        baseURL.appendingPathComponent("v1/sync/changes")
    }

    /// A pusher to the server's `/v1/sync/changes`, `endpoint`.
    public init(_ writer: any DatabaseWriter, schema: SyncSchema, endpoint: URL, transport: any HTTPTransport) {
        self.writer = writer
        self.schema = schema
        self.endpoint = endpoint
        self.transport = transport
    }

    /// Pushes every change of the outbox; in a dry run, counts them and
    /// sends nothing. Either way, the report counts the changes that were
    /// waiting (``SyncPushReport/pending``).
    public func push(dryRun: Bool = false) async throws -> SyncPushReport {
        let (schema, maximumChanges, allowsOtherServer) = (schema, maximumChanges, allowsOtherServer)
        let (pending, server) = try await writer.read { db in
            // The changes are meant for the server the stored cursor names.
            let server = allowsOtherServer ? nil : try String.fetchOne(db, sql: "SELECT cursor FROM \(SyncEngine.stateTable) WHERE id = 1")
                .flatMap { try? SyncCursor($0).server }
            return (try Int.fetchOne(db, sql: "SELECT count(*) FROM \(SyncEngine.outboxTable)") ?? 0, server)
        }
        var report = SyncPushReport(pending: pending)
        guard !dryRun, pending > 0 else { return report }
        onProgress?(0, pending)
        var answeredCount = 0
        var previous: [SyncPushChange] = []
        while true {
            var batch = try await writer.write { db in try db.nextSyncPushBatch(for: schema, maximumChanges: maximumChanges) }
            // Each answered batch leaves the outbox: the same batch twice
            // means another process is recording the answers.
            guard !batch.isEmpty, batch != previous else { break }
            var body = SyncChangeBatch(changes: batch.map(\.change), server: server).jsonData()
            while body.count > maximumBodyBytes, batch.count > 1 {
                batch = Array(batch.prefix(batch.count / 2))
                body = SyncChangeBatch(changes: batch.map(\.change), server: server).jsonData()
            }
            previous = batch
            let response = try await transport.send(HTTPRequest(
                method: "POST", url: endpoint,
                headers: ["Content-Type": "application/json", "Accept": "application/json"],
                body: body,
                // The server applies a mutation id once.
                isIdempotent: true))
            report.bytesReceived += response.bytesReceived
            guard response.status == 200 else { throw SyncClient<SyncEngineStore>.error(for: response) }
            let results: SyncChangeResults
            do throws(SyncMessageError) {
                results = try SyncChangeResults.decode(response.body, answering: batch.map(\.change), schema: schema)
            } catch {
                throw SyncPayloadError(path: error.path, error.message)
            }
            let answered = batch
            report.counts += try await writer.write { db in try db.recordSyncPushResults(results.results, for: answered, schema: schema) }
            report.batches += 1
            answeredCount += answered.count
            onProgress?(answeredCount, pending)
        }
        return report
    }
}
