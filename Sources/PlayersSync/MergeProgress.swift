/// Follows the merge of a sync: called with the staged changes walked so
/// far and their total, at the start, every thousand changes and at the
/// end, inside the merge's transaction (keep it short).
///
/// ```swift
/// let client = appDatabase.syncClient(baseURL: url, transport: CurlTransport(), mergeProgress: { merged, staged in
///     print("\(merged) of \(staged) players merged")
/// })
/// ```
public typealias MergeProgress = @Sendable (_ merged: Int, _ staged: Int) -> Void
