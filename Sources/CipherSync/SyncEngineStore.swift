import CipherDB
import Foundation
import SyncEngine
import SyncSchema

/// Where CipherSync's client puts the pages of an app's pull: the app's
/// database, with the engine installed for `schema`
/// (``CipherDB/Database/installSyncEngine(for:)``). Pages are staged in
/// each table's `sync_stage_NAME` as they arrive, then merged in one write transaction that
/// also stores the cursor and `ETag` (Docs/SyncEngine.md).
///
/// ```swift
/// let store = SyncEngineStore(dbQueue, schema: schema)
/// let client = SyncClient(transport: CurlTransport(), endpoint: store.rowsEndpoint(baseURL: url), store: store)
/// let report = try await client.sync()
/// ```
public struct SyncEngineStore: SyncStore {
    public let writer: any DatabaseWriter
    public let schema: SyncSchema
    /// Follows each merge (``CipherSync/SyncMergeProgress``).
    public var mergeProgress: SyncMergeProgress?
    /// Runs inside each merge's transaction, after its changes and before
    /// its commit: a hook for crash tests.
    public var beforeCommit: (@Sendable (Database) throws -> Void)?
    /// Told, after each merge's commit, the rows it deleted because the
    /// server deleted them (its tombstones, or a snapshot that no longer
    /// lists them), children before parents. Default: nil, the merge
    /// lists none.
    public var onRowsRemoved: (@Sendable ([SyncRowReference]) -> Void)?
    /// What seals and opens the rows of the declaration's end-to-end
    /// tables (`SyncEndToEndSealer`, module SyncEndToEnd): a declaration
    /// with such tables syncs only with one, and without one the sync
    /// throws ``SyncEngine/SyncEngineError/endToEndWithoutSealing(_:)``
    /// before it sends or merges anything. Default: nil.
    public var endToEnd: (any SyncEndToEndCodec)?

    /// The declaration as pages and answers carry its rows
    /// (``SyncSchema/SyncSchema/receivedView``).
    let receivedSchema: SyncSchema

    public init(_ writer: any DatabaseWriter, schema: SyncSchema) {
        self.writer = writer
        self.schema = schema
        receivedSchema = schema.receivedView
    }

    /// Throws ``SyncEngine/SyncEngineError/endToEndWithoutSealing(_:)``
    /// for a declaration with end-to-end tables and no ``endToEnd``.
    func checkEndToEnd() throws {
        if endToEnd == nil, let table = schema.tables.first(where: \.isEndToEnd) {
            throw SyncEngineError.endToEndWithoutSealing(table.name)
        }
    }

    /// The server's `GET /v1/sync/rows`, for the declared tables alone
    /// (`tables=`): a server that also syncs other apps' tables sends none
    /// of their rows. The cursor stored belongs to this URL: a declaration
    /// of other tables takes a snapshot, which brings the rows of a table
    /// it adds.
    public func rowsEndpoint(baseURL: URL) -> URL {
        schema.rowsEndpoint(baseURL: baseURL)
    }

    public func decodePage(_ data: Data) throws -> SyncPulledPage {
        do {
            // End-to-end tables' rows as they come, sealed or not: the
            // staging opens them, or refuses them one by one.
            var page = try SyncPage.decode(data, schema: receivedSchema)
            // A digest of other columns than the declaration's (a server
            // of a later one) cannot be compared.
            page.digests = page.digests?.filter { digest in schema.table(digest.table).map(digest.covers) ?? false }
            return SyncPulledPage(page)
        } catch {
            throw SyncPayloadError(error)
        }
    }

    public func syncPosition() async throws -> SyncPosition {
        try await writer.read { db in try db.syncPosition() }
    }

    /// Compares the synced rows with the server's digests stored by the
    /// last merge, for a pull answered `304`.
    public func checkDigest() async throws -> SyncDivergence? {
        let schema = schema
        return try await writer.read { db in try db.syncDigestDivergence(schema: schema, settling: false) }
    }

    public func beginStaging() async throws -> SyncEngineStaging {
        try checkEndToEnd()
        let schema = schema
        let endToEnd = endToEnd
        let opener = try await writer.write { db in
            try db.prepareSyncStaging(schema: schema)
            return try endToEnd?.opener(in: db)
        }
        return SyncEngineStaging(writer: writer, schema: schema, mergeProgress: mergeProgress, beforeCommit: beforeCommit,
                                 onRowsRemoved: onRowsRemoved, opener: opener)
    }
}
