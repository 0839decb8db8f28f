import Foundation
import SyncEngine
import SyncSchema

/// One page of a sync protocol's answer: a snapshot of everything, or a
/// delta of the changes after a cursor (Docs/SyncProtocol.md).
public protocol SyncMessage: Sendable {

    /// Whether the page belongs to a snapshot (else to a delta).
    var isSnapshot: Bool { get }
    /// Whether no page follows this one.
    var isComplete: Bool { get }
    /// The server's position after this page (``position(ofCursor:)``).
    var cursor: String? { get }
    /// The next page, relative to the endpoint, when `isComplete` is false.
    var next: String? { get }
    /// The server's digest of each table at the page's cursor, on a
    /// complete page whose server read them with the page; nil otherwise.
    /// The client hands the last page's to the store's merge, which
    /// compares them with its own.
    var serverDigests: [SyncTableDigest]? { get }

    /// The position a cursor of this protocol stands for, or nil when the
    /// protocol's cursors are opaque. Throws for a cursor that is not one
    /// of this protocol's.
    static func position(ofCursor cursor: String) throws(SyncPayloadError) -> SyncCursorPosition?

    /// For a snapshot page: the counter up to which the history of
    /// `position` (a cursor of an earlier epoch of the same server) and
    /// the page's history are the same, or nil when the page cannot tell.
    func sharedCounter(with position: SyncCursorPosition) -> Int64?

    /// Throws unless every version on the page is above `lower` (the
    /// position a delta page continues from) and at most `upper` (the
    /// position of the page's own cursor): a server cannot make a change
    /// look newer than its history, nor send one change twice in a sync.
    func checkVersions(above lower: Int64?, atMost upper: Int64) throws(SyncPayloadError)
}

/// A snapshot of everything, or a delta of the changes after a cursor.
public enum SyncKind: String, Codable, Sendable {
    case snapshot, delta
}

/// Every page of one sync, held in memory: what
/// ``SyncStore/merge(_:from:dryRun:)`` takes from a caller that has the
/// pages already. ``SyncClient`` keeps no page: it stages each one as it
/// arrives (``SyncStaging``).
public struct SyncFetch<Message: SyncMessage>: Sendable {
    public var kind: SyncKind
    /// The pages of the snapshot or of the delta, in order.
    public var pages: [Message]
    /// For a snapshot of several pages: the delta since its cursor, with
    /// the changes made while it was paged (the higher version wins).
    public var catchUp: [Message]
    /// The cursor to store once the pages are merged.
    public var cursor: String
    /// The `ETag` to send with the next delta request, if the server gave
    /// one for the current cursor.
    public var etag: String?
    public var bytesReceived: Int

    public init(kind: SyncKind, pages: [Message], catchUp: [Message] = [], cursor: String, etag: String?, bytesReceived: Int) {
        self.kind = kind
        self.pages = pages
        self.catchUp = catchUp
        self.cursor = cursor
        self.etag = etag
        self.bytesReceived = bytesReceived
    }
}

/// What a merge did, or would do in a dry run.
public struct SyncCounts: Codable, Equatable, Sendable {
    public var inserted = 0
    public var updated = 0
    public var deleted = 0
    public var unchanged = 0
    /// Local data that the server lost when its history went back
    /// (``SyncHistoryChange/wentBack``), or that it never had, queued to
    /// be pushed again.
    public var requeued = 0
    /// After the merge, the store's synced data compared with the server's
    /// digests (``SyncMessage/serverDigests``) and found different; nil when
    /// they match or were not compared (no digest, local changes waiting, a
    /// dry run).
    public var divergence: SyncDivergence?
    /// The rows of end-to-end tables that the device refused, or holds no
    /// key to open yet: each keeps its earlier value (Docs/EndToEnd.md).
    public var refusedRows: [SyncRefusedRow] = []

    public init(inserted: Int = 0, updated: Int = 0, deleted: Int = 0, unchanged: Int = 0, requeued: Int = 0,
                divergence: SyncDivergence? = nil, refusedRows: [SyncRefusedRow] = []) {
        self.inserted = inserted
        self.updated = updated
        self.deleted = deleted
        self.unchanged = unchanged
        self.requeued = requeued
        self.divergence = divergence
        self.refusedRows = refusedRows
    }
}
