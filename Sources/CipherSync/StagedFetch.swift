import SyncEngine
import SyncSchema

/// What a sync fetched, once every page is staged: its kind and the
/// position to store with the merge.
public struct StagedFetch: Equatable, Sendable {
    public var kind: SyncKind
    /// The cursor to store once the pages are merged.
    public var cursor: String
    /// The `ETag` to send with the next delta request, if the server gave
    /// one for the current cursor.
    public var etag: String?
    /// How the server's history differs from the stored cursor's, when a
    /// snapshot found it so.
    public var historyChange: SyncHistoryChange?
    /// With ``SyncHistoryChange/wentBack``: the counter up to which the
    /// store's history and the server's are the same; nil when unknown
    /// (then every synced value that differs from the server's is kept as
    /// a conflict, none pushed again).
    public var sharedCounter: Int64?
    /// The server's digests at `cursor`, from the last page, if it sent
    /// them: the merge compares the store's synced data with them, and
    /// stores them with the cursor.
    public var digests: [SyncTableDigest]?

    public init(kind: SyncKind, cursor: String, etag: String?, historyChange: SyncHistoryChange? = nil, sharedCounter: Int64? = nil,
                digests: [SyncTableDigest]? = nil) {
        self.kind = kind
        self.cursor = cursor
        self.etag = etag
        self.historyChange = historyChange
        self.sharedCounter = sharedCounter
        self.digests = digests
    }
}
