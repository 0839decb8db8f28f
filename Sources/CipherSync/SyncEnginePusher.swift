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
    /// What seals the changes of end-to-end tables and opens the server's
    /// rows in the answers (``SyncEngineStore/endToEnd``). A declaration
    /// with such tables pushes only with one. Default: nil.
    public var endToEnd: (any SyncEndToEndCodec)?

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
        if endToEnd == nil, let table = schema.tables.first(where: \.isEndToEnd) {
            throw SyncEngineError.endToEndWithoutSealing(table.name)
        }
        let allowsOtherServer = allowsOtherServer
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
        // Rows whose changes wait: no key to seal them yet, or a server
        // state in an answer that the device refused.
        var skipped: Set<SyncRowReference> = []
        // How answers carry end-to-end tables' rows, sealed or not.
        let receivedSchema = schema.receivedView
        while true {
            let next = try await writer.write { [skipped] db in try nextBatch(db, skipping: skipped) }
            var (batch, sent) = (next.batch, next.sent)
            skipped.formUnion(next.waiting)
            report.waitingForKeys += next.waiting.count
            if batch.isEmpty, !next.waiting.isEmpty { continue }
            // Each answered batch leaves the outbox: the same batch twice
            // means another process is recording the answers.
            guard !batch.isEmpty, batch != previous else { break }
            var body = SyncChangeBatch(changes: sent, server: server).jsonData()
            while body.count > maximumBodyBytes, batch.count > 1 {
                batch = Array(batch.prefix(batch.count / 2))
                sent = Array(sent.prefix(batch.count))
                body = SyncChangeBatch(changes: sent, server: server).jsonData()
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
                results = try SyncChangeResults.decode(response.body, answering: sent, schema: receivedSchema)
            } catch {
                throw SyncPayloadError(error)
            }
            let (answered, sealed) = (batch, sent)
            let recorded = try await writer.write { db in try record(results.results, for: answered, sent: sealed, db) }
            report.counts += recorded.counts
            report.refusedRows += recorded.refused.map(SyncRefusedRow.init)
            skipped.formUnion(recorded.refused.map { SyncRowReference(table: $0.table, id: $0.id) })
            report.batches += 1
            answeredCount += answered.count - recorded.refused.count
            onProgress?(answeredCount, pending)
        }
        return report
    }

    /// The next batch of the outbox but the `skipping` rows, and the
    /// changes as they are sent: sealed, for end-to-end tables; `waiting`,
    /// the rows of the batch that cannot be sealed yet.
    private func nextBatch(_ db: Database, skipping: Set<SyncRowReference>)
        throws -> (batch: [SyncPushChange], sent: [SyncChange], waiting: [SyncRowReference]) {
        let batch = try db.nextSyncPushBatch(for: schema, maximumChanges: maximumChanges, skipping: skipping)
        guard let endToEnd else { return (batch, batch.map(\.change), []) }
        var sealedBatch: [SyncPushChange] = [], sent: [SyncChange] = [], waiting: [SyncRowReference] = []
        for change in batch {
            guard schema.table(change.row.table)?.isEndToEnd == true else {
                sealedBatch.append(change)
                sent.append(change.change)
                continue
            }
            if let sealed = try endToEnd.seal(change.change, in: db) {
                sealedBatch.append(change)
                sent.append(sealed)
            } else {
                waiting.append(SyncRowReference(table: change.row.table, id: change.row.id))
            }
        }
        return (sealedBatch, sent, waiting)
    }

    /// Records the answers to a batch: the server's rows of end-to-end
    /// tables opened first; an answer whose row the device refuses is not
    /// recorded, and its change stays in the outbox.
    private func record(_ results: [SyncPushResult], for batch: [SyncPushChange], sent: [SyncChange],
                        _ db: Database) throws -> (counts: SyncPushCounts, refused: [SyncRowRefusal]) {
        guard let endToEnd else { return (try db.recordSyncPushResults(results, for: batch, schema: schema), []) }
        let sentByMutation = Dictionary(uniqueKeysWithValues: sent.map { ($0.mutationID, $0) })
        let sealedRows = results.compactMap { result in
            result.serverRow.flatMap { schema.table($0.table)?.isEndToEnd == true ? SyncServerRow(row: $0, version: result.version ?? 0) : nil }
        }
        var openedRows = try db.refusingReplayedSyncRows(endToEnd.opener(in: db).open(sealedRows)).makeIterator()
        var opened: [SyncPushResult] = [], refused: [SyncRowRefusal] = []
        for var result in results {
            if let row = result.serverRow, schema.table(row.table)?.isEndToEnd == true {
                switch openedRows.next() {
                case .success(let taken)?:
                    result.serverRow = taken.server.row
                    try db.recordSyncSealedCounter(taken.sealed, table: row.table, id: row.id)
                case .failure(let refusal)?:
                    refused.append(refusal)
                    continue
                case nil:
                    throw SyncEngineError.endToEndWithoutSealing(row.table)
                }
            }
            opened.append(result)
        }
        let counts = try db.recordSyncPushResults(opened, for: batch, schema: schema)
        for result in opened where result.status == .applied {
            if let change = sentByMutation[result.mutationID], schema.table(change.row.table)?.isEndToEnd == true {
                try endToEnd.applied(change, in: db)
            }
        }
        return (counts, refused)
    }
}
