import Foundation
import Hummingbird
import NIOCore
import SyncSchema
import SyncServer

extension SyncServerAPI {
    /// Throws 410 for a cursor of another history than the store's, or
    /// issued to another user than the request's: never a delta across a
    /// restore, from another server's database, or after another user's
    /// position.
    func checkHistory(of cursor: SyncCursor, _ context: SyncRequestContext) throws {
        switch engine.history.mismatch(of: cursor, for: context.user) {
        case nil: return
        case .otherServer: throw APIError.gone(.otherServer)
        case .earlierEpoch: throw APIError.gone(.earlierEpoch)
        case .otherUser:
            metrics.cursorRefused()
            throw APIError.gone(.otherUser)
        }
    }

    /// Holds a long-poll whose delta was `empty` until a commit moves the
    /// counter past it (through any instance; under signed identities, one
    /// that `user` may see, ``SyncServer/StoreChangeScope``), the wait of `seconds` ends,
    /// or the server shuts down; then `read`s again, which is the answer
    /// (the empty one with the same cursor when nothing changed). A wake
    /// that brings nothing (the store rechecks after losing its
    /// notifications) waits again until the same deadline, for a version
    /// past every one known: it never spins. Counted by the long-poll
    /// metrics.
    func holdLongPoll(seconds: Int, empty: SharedDelta, for user: SyncUser?,
                      read: () async throws -> SharedDelta) async throws -> SharedDelta {
        let deadline = longPollTimers.any().now + .seconds(Int64(seconds))
        metrics.longPollStarted()
        defer { metrics.longPollEnded() }
        var answer = empty
        var after = empty.counter
        while answer.isEmpty {
            // A user's waits for the commits they may see: their
            // partitions as they stand (a group they just made included).
            var interest: StoreChangeInterest?
            if let user { interest = try await engine.rights(of: user).interest }
            let outcome = await engine.changes.wait(after: after, until: deadline, timers: longPollTimers, for: interest)
            if outcome == .changed { metrics.longPollWoken() }
            after = max(after, engine.changes.latestVersion)
            answer = try await read()
            after = max(after, answer.counter)
            if outcome != .changed { break }
        }
        return answer
    }

    /// Purges expired tombstones, at most once a minute, before a delta is
    /// answered: a cursor older than the retention then gets 410.
    func purgeTombstonesIfDue() async throws {
        let now = Date()
        if lastPurge.takeIfDue(at: now) {
            try await engine.purgeTombstones(olderThan: configuration.tombstoneRetention, now: now)
        }
    }
}
