import CommandLineBase
import Foundation
import Synchronization

/// The progress of one `players sync`, in two lines, one after the other:
/// the elapsed time while it pushes and fetches (`Sync: 3 s, 2 pages,
/// 1.2 MB`), then the merge as a bar of its own, players merged of staged
/// (`Merge [########            ]  40% (20%/s), 200000 of 500000
/// players`), with no byte count. Both with the shared
/// ``ProgressReporter``: on a terminal only, never when quiet, never for
/// a phase shorter than its delay (the merge's reporter starts with the
/// merge, so that its rate is the merge's). Only the first sync is shown
/// (not those of `--watch`).
final class SyncProgress: Sendable {
    private struct State {
        /// The fetching line is finished: the merge may draw its own.
        var isMerging = false
        /// The first sync is over: later merges are not shown.
        var isDone = false
        /// Made when the merge begins.
        var merging: ProgressReporter?
    }

    private let fetching: ProgressReporter
    private let mergingLabel: String
    private let quiet: Bool
    private let state = Mutex(State())
    /// Ends when the merge begins (or the sync ends without one).
    private let mergeBegan: AsyncStream<Void>
    private let beginMerge: AsyncStream<Void>.Continuation

    init(quiet: Bool, dryRun: Bool) {
        fetching = ProgressReporter(label: "Sync", quiet: quiet)
        mergingLabel = dryRun ? "Check" : "Merge"
        self.quiet = quiet
        (mergeBegan, beginMerge) = AsyncStream<Void>.makeStream()
    }

    /// Bytes of a page received so far (libcurl's progress): nothing
    /// while none has come.
    func received(_ bytes: Int64) {
        guard bytes > 0 else { return }
        fetching.setDetail("receiving a page, \(Self.bytes(bytes))")
    }

    /// Pages staged so far, and their bytes.
    func staged(pages: Int, bytes: Int) {
        fetching.setDetail("\(pages) page\(pages == 1 ? "" : "s"), \(Self.bytes(Int64(bytes)))")
    }

    /// The merge's progress (``CipherSync/SyncMergeProgress``).
    func merged(_ merged: Int, of staged: Int) {
        beginMerge.finish()
        let merging = state.withLock { state -> ProgressReporter? in
            guard state.isMerging, !state.isDone else { return nil }
            if state.merging == nil { state.merging = ProgressReporter(label: mergingLabel, quiet: quiet) }
            return state.merging
        }
        guard let merging else { return }
        merging.setDetail("\(merged) of \(staged) players")
        merging.report(Double(merged) / Double(max(staged, 1)))
    }

    /// Runs the sync: the elapsed time until its merge begins, then the
    /// merge's bar.
    func whileSyncing<T: Sendable>(_ sync: @escaping @Sendable () async throws -> T) async throws -> T {
        let beginMerge = beginMerge
        async let result = {
            defer { beginMerge.finish() }
            return try await sync()
        }()
        try await fetching.whileRunning {
            for await _ in mergeBegan {}
        }
        state.withLock { $0.isMerging = true }
        defer {
            let merging = state.withLock { state in
                state.isDone = true
                return state.merging
            }
            merging?.finish()
        }
        return try await result
    }

    static func bytes(_ count: Int64) -> String {
        ByteCountFormatter.string(fromByteCount: count, countStyle: .file)
    }
}
