import Synchronization
import SyncSchema
import SyncServer

/// What a user's reads need besides their rows, as the store held it at a
/// counter: their grants, the version at which their memberships last
/// changed, and the digests of the rows they read. Every write that
/// changes any of them commits a new counter (the one writer's lock), so
/// what was read at a counter stays true for every read that finds the
/// same counter, on any instance: a read that finds it reads the counter
/// alone.
///
/// ```swift
/// let counter = try await counterOfTheRead()
/// let facts = cache.facts(of: user.name, at: counter.value) ?? readAndKeepTheFacts()
/// ```
final class PostgresUserReadCache: Sendable {
    struct Facts: Sendable {
        let counter: Int64
        let grants: [SyncGrant]
        /// The version of the user's last change of memberships; nil: none.
        let accessChangedAt: Int64?
        let digests: [SyncTableDigest]
    }

    /// The most users kept; past it the cache starts anew, rather than
    /// grow with every user a server has seen.
    static let maximumUsers = 100_000

    private let facts = Mutex<[String: Facts]>([:])

    /// The facts of `user` read at `counter`, if kept.
    func facts(of user: String, at counter: Int64) -> Facts? {
        facts.withLock { facts in facts[user].flatMap { $0.counter == counter ? $0 : nil } }
    }

    /// Keeps `new`, read in a transaction that found its counter.
    func keep(_ new: Facts, of user: String) {
        facts.withLock { facts in
            if facts.count >= Self.maximumUsers, facts[user] == nil { facts.removeAll(keepingCapacity: true) }
            if let kept = facts[user], kept.counter > new.counter { return }
            facts[user] = new
        }
    }
}
