import Foundation
import Hummingbird
import NIOCore
import SyncSchema
import SyncServer

extension SyncServerAPI {
    /// Throws 410 for a cursor of another history than the store's: never
    /// a delta across a restore or from another server's database.
    func checkHistory(of cursor: SyncCursor) throws {
        switch engine.history.mismatch(of: cursor) {
        case nil: return
        case .otherServer: throw APIError.gone(.otherServer)
        case .earlierEpoch: throw APIError.gone(.earlierEpoch)
        }
    }

    /// Holds a long-poll whose delta was `empty` until a commit moves the
    /// counter past it (through any instance), the wait of `seconds` ends,
    /// or the server shuts down; then `read`s again, which is the answer
    /// (the empty one with the same cursor when nothing changed). A wake
    /// that brings nothing (the store rechecks after losing its
    /// notifications) waits again until the same deadline, for a version
    /// past every one known: it never spins. Counted by the long-poll
    /// metrics.
    func holdLongPoll(seconds: Int, empty: SharedDelta, read: () async throws -> SharedDelta) async throws -> SharedDelta {
        let deadline = longPollTimers.any().now + .seconds(Int64(seconds))
        metrics.longPollStarted()
        defer { metrics.longPollEnded() }
        var answer = empty
        var after = empty.counter
        while answer.isEmpty {
            let outcome = await engine.changes.wait(after: after, until: deadline, timers: longPollTimers)
            after = max(after, engine.changes.latestVersion)
            answer = try await read()
            after = max(after, answer.counter)
            if outcome != .changed { break }
        }
        return answer
    }

    /// Under signed identities: throws 403 unless the request's user may
    /// write every table of `tables` (``SyncServer/SyncTableAccess/permitsWriting(withRoles:)``),
    /// before anything is written. A table the server does not sync is
    /// left to the write, which refuses it.
    func requireWriteAccess(to tables: [String], _ context: SyncRequestContext) throws {
        guard let identity = context.identity else { return }
        for name in Set(tables).sorted() {
            guard let table = engine.schema.table(name) else { continue }
            guard let access = table.access, access.permitsWriting(withRoles: identity.roles) else {
                let writers = if case .shared(let writers)? = table.access { writers.joined(separator: " or ") } else { "a rule" }
                throw APIError.forbidden("writing the table \(name) needs the role \(writers), which the token of \(identity.user) does not give: "
                    + "nothing was written; ask for a token with that role")
            }
        }
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
