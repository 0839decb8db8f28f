import SyncServer
import Synchronization

/// One read of a delta, and one encoding of its answer, for every request
/// that asks for the same one at the same time: the long-polls that one
/// commit wakes together, and the new long-polls that their clients send
/// right after, all ask for the delta after the same cursor. 10,000
/// watchers then cost one store read and one JSON encoding per commit,
/// not 10,000. The players' deltas and the engine's each have one, over
/// their store's notifier.
///
/// A request joins a read (running or done) of the same `since`, `limit`
/// and tables only if the read began when the store's latest known version
/// (``StoreChangeNotifier/latestVersion``) was at least the request's
/// own and its cursor's: so an answer never misses a commit that the
/// request could know of, and a cursor just made on another instance is
/// never answered from a read older than it. Reads of an older version
/// are dropped as soon as a later one is known; a read that fails is not
/// kept, so the next request tries again.
///
/// ```swift
/// let reads = SharedDeltaReads(changes: store.changes) { since, limit, tables, user in try await readAndEncode(since, limit, tables, user) }
/// let delta = try await reads.delta(since: 41, limit: 500, tables: nil)
/// ```
final class SharedDeltaReads<Delta: Sendable>: Sendable {
    private struct Key: Hashable {
        var since: Int64
        var limit: Int
        var tables: SyncTableFilter?
        /// The user whose rights filter the read: a read is shared only
        /// between requests of the same user.
        var user: SyncUser?
    }

    private struct Read {
        var id: UInt64
        /// The store's latest known version when the read began.
        var version: Int64
        var task: Task<Delta?, any Error>
    }

    private struct State {
        var reads: [Key: Read] = [:]
        var nextID: UInt64 = 0
    }

    /// The most reads kept at once (each holds its page until the next
    /// commit): past it they are all dropped (the tasks running go on for
    /// their requests).
    static var maximumKept: Int { 256 }

    private let state = Mutex(State())
    private let changes: StoreChangeNotifier
    /// Called once for each read of the store.
    private let onRead: @Sendable () -> Void
    /// Reads the delta after `since`, at most `limit` changes, of `tables`
    /// (nil: every one; the players' deltas are of their table), and
    /// encodes its answer; nil when the cursor is too old or ahead of the
    /// store.
    private let read: @Sendable (_ since: Int64, _ limit: Int, _ tables: SyncTableFilter?, _ user: SyncUser?) async throws -> Delta?

    init(changes: StoreChangeNotifier, onRead: @escaping @Sendable () -> Void = {},
         read: @escaping @Sendable (_ since: Int64, _ limit: Int, _ tables: SyncTableFilter?, _ user: SyncUser?) async throws -> Delta?) {
        self.changes = changes
        self.onRead = onRead
        self.read = read
    }

    /// The delta after `since`, at most `limit` changes, of `tables`, from
    /// a read that began at the store's latest known version or later,
    /// with its answer, of the rows `user` reads (every one when nil); nil
    /// when the cursor is too old or ahead of the store, or the user's
    /// memberships changed since.
    func delta(since: Int64, limit: Int, tables: SyncTableFilter? = nil, for user: SyncUser? = nil) async throws -> Delta? {
        let key = Key(since: since, limit: limit, tables: tables, user: user)
        let (shared, isNew) = state.withLock { state -> (Read, Bool) in
            let latest = changes.latestVersion
            if let shared = state.reads[key], shared.version >= max(latest, since) {
                return (shared, false)
            }
            // Reads of an older version can no longer be joined.
            state.reads = state.reads.filter { $0.value.version >= latest }
            if state.reads.count >= Self.maximumKept { state.reads.removeAll() }
            let id = state.nextID
            state.nextID += 1
            let shared = Read(id: id, version: latest, task: Task { [read] in try await read(since, limit, tables, user) })
            state.reads[key] = shared
            return (shared, true)
        }
        if isNew { onRead() }
        do {
            return try await shared.task.value
        } catch {
            state.withLock { state in
                if state.reads[key]?.id == shared.id { state.reads[key] = nil }
            }
            throw error
        }
    }
}
