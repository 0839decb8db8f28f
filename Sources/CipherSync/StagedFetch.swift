/// What a sync fetched, once every page is staged: its kind and the
/// position to store with the merge.
public struct StagedFetch: Equatable, Sendable {
    public var kind: SyncKind
    /// The cursor to store once the pages are merged.
    public var cursor: String
    /// The `ETag` to send with the next delta request, if the server gave
    /// one for the current cursor.
    public var etag: String?

    public init(kind: SyncKind, cursor: String, etag: String?) {
        self.kind = kind
        self.cursor = cursor
        self.etag = etag
    }
}
