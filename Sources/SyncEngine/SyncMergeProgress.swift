/// Follows the merge of a sync: called with the staged changes merged so
/// far and their total, at the start, as the merge goes (every thousand
/// or so) and at the end, inside the merge's transaction (keep it short).
///
/// ```swift
/// var store = SyncEngineStore(dbQueue, schema: schema)
/// store.mergeProgress = { merged, staged in print("\(merged) of \(staged) rows merged") }
/// ```
public typealias SyncMergeProgress = @Sendable (_ merged: Int, _ staged: Int) -> Void
