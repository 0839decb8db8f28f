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

    /// Under signed identities: why the request's user may not write the
    /// table `name` (its access, ``SyncServer/SyncTableAccess/permitsWriting(withRoles:)``),
    /// or nil when they may, or when the server does not sync it (the
    /// write refuses that).
    func writeRefusal(of name: String, _ context: SyncRequestContext) -> String? {
        guard let identity = context.identity, let table = engine.schema.table(name) else { return nil }
        if let access = table.access, access.permitsWriting(withRoles: identity.roles) { return nil }
        let writers = if case .shared(let writers)? = table.access { writers.joined(separator: " or ") } else { "a rule" }
        return "writing the table \(name) needs the role \(writers), which the token of \(identity.user) does not give: "
            + "nothing was written; ask for a token with that role"
    }

    /// `/v1/rows`: throws 403 unless the request's user may write `table`,
    /// before anything is written.
    func requireWriteAccess(to table: String, _ context: SyncRequestContext) throws {
        if let refusal = writeRefusal(of: table, context) { throw APIError.forbidden(refusal) }
    }

    /// `POST /v1/sync/changes`: applies the changes the request's user may
    /// make, and answers each of the others `refused`, with the reason
    /// and the row as the server has it (which the device takes back):
    /// one refused change never blocks the others, nor the pull after them.
    func applyPermitted(_ changes: [SyncChange], _ context: SyncRequestContext) async throws -> [SyncPushResult] {
        let refusals = changes.map { writeRefusal(of: $0.row.table, context) }
        guard refusals.contains(where: { $0 != nil }) else { return try await engine.applyChanges(changes, at: Date()) }
        let permitted = zip(changes, refusals).filter { $0.1 == nil }.map(\.0)
        var applied = permitted.isEmpty ? [] : try await engine.applyChanges(permitted, at: Date())[...]
        var results: [SyncPushResult] = []
        for (change, refusal) in zip(changes, refusals) {
            guard let refusal else {
                results.append(applied.removeFirst())
                continue
            }
            let stored = try await engine.row(SyncRowKey(table: change.row.table, id: change.row.id))
            let served = try stored.flatMap { try SyncRowEdit.served($0, in: engine.schema) }
            results.append(SyncPushResult(mutationID: change.mutationID, status: .refused,
                                          version: served?.version ?? stored?.version, serverRow: served?.row, refusal: refusal))
        }
        return results
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
