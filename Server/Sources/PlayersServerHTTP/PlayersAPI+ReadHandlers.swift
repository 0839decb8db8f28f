import Foundation
import Hummingbird
import NIOCore
import PlayersProtocol
import PlayersServerStore
import SyncSchema
import SyncServer

extension PlayersAPI {
    /// `GET /v1/players`: a page of the snapshot, or, with `since`, a page
    /// of the delta after that cursor (410 when the cursor is too old);
    /// with `wait`, an empty delta is held until a change is committed or
    /// the wait ends (``waitForDelta(since:limit:seconds:)``).
    @Sendable func listPlayers(_ request: Request, _ context: PlayersRequestContext) async throws -> PlayersPage {
        switch try PlayersQuery(request.uri.queryParameters, configuration: configuration) {
        case let .snapshot(limit, after, cursor):
            if let cursor { try checkHistory(of: cursor) }
            let page = try await store.snapshot(limit: limit, after: after)
            return try PlayersPage(page, limit: limit, after: after, cursor: cursor?.counter, history: store.history)
        case let .delta(since, limit, wait):
            try checkHistory(of: since)
            try await purgeTombstonesIfDue()
            guard var delta = try await sharedDeltaReads.delta(since: since.counter, limit: limit) else {
                throw APIError.gone(.forgotten)
            }
            if delta.page.changes.isEmpty, wait > 0 {
                delta = try await waitForDelta(since: since.counter, limit: limit, seconds: wait, empty: delta)
            }
            return delta.answer
        }
    }

    /// Throws 410 for a cursor of another history than the store's: never
    /// a delta across a restore or from another server's database.
    func checkHistory(of cursor: PlayersCursor) throws {
        try checkHistory(of: cursor, in: store.history, snapshot: "/v1/players")
    }

    /// Throws 410 for a cursor of another history than `history`, whose
    /// client takes the `snapshot` instead.
    func checkHistory(of cursor: SyncCursor, in history: ServerHistory, snapshot: String) throws {
        switch history.mismatch(of: cursor) {
        case nil: return
        case .otherServer: throw APIError.gone(.otherServer, snapshot: snapshot)
        case .earlierEpoch: throw APIError.gone(.earlierEpoch, snapshot: snapshot)
        }
    }

    /// Holds a long-poll whose delta was `empty` until a commit moves the
    /// counter past it (through any instance), the wait ends, or the
    /// server shuts down; then reads the delta again, which is the answer
    /// (the empty one with the same cursor when nothing changed): one read
    /// for all the long-polls that the commit woke (``SharedDeltaReads``). A wake
    /// that brings nothing (the store rechecks after losing its
    /// notifications) waits again until the same deadline, for a version
    /// past every one known: it never spins.
    func waitForDelta(since: Int64, limit: Int, seconds: Int, empty: SharedDelta) async throws -> SharedDelta {
        try await holdLongPoll(seconds: seconds, changes: store.changes, empty: empty, version: \.page.serverVersion,
                               isEmpty: \.page.changes.isEmpty) { [self] in
            guard let next = try await sharedDeltaReads.delta(since: since, limit: limit) else { throw APIError.gone(.forgotten) }
            return next
        }
    }

    /// The one way a long-poll waits, the players' and the engine's: holds
    /// an `empty` answer until a commit moves the counter past its
    /// `version` (through any instance), the wait of `seconds` ends, or
    /// the server shuts down; then `read`s again, which is the answer (the
    /// empty one with the same cursor when nothing changed). A wake that
    /// brings nothing (the store rechecks after losing its notifications)
    /// waits again until the same deadline, for a version past every one
    /// known: it never spins. Counted by the long-poll metrics.
    func holdLongPoll<Answer: Sendable>(
        seconds: Int, changes: StoreChangeNotifier, empty: Answer, version: (Answer) -> Int64, isEmpty: (Answer) -> Bool,
        read: () async throws -> Answer
    ) async throws -> Answer {
        let deadline = longPollTimers.any().now + .seconds(Int64(seconds))
        metrics.longPollStarted()
        defer { metrics.longPollEnded() }
        var answer = empty
        var after = version(empty)
        while isEmpty(answer) {
            let outcome = await changes.wait(after: after, until: deadline, timers: longPollTimers)
            after = max(after, changes.latestVersion)
            answer = try await read()
            after = max(after, version(answer))
            if outcome != .changed { break }
        }
        return answer
    }

    /// `GET /v1/players/{uuid}`: one live player, or 404.
    @Sendable func getPlayer(_ request: Request, _ context: PlayersRequestContext) async throws -> PlayersPayload.PlayerEntry {
        let uuid = try pathUUID(context)
        guard let player = try await store.player(uuid) else {
            throw APIError.notFound("no player has the uuid \(uuid.uuidString)")
        }
        return player.entry
    }

    /// Purges expired tombstones, at most once a minute, before a delta is
    /// answered: a cursor older than the retention then gets 410.
    func purgeTombstonesIfDue() async throws {
        let now = Date()
        if lastPurge.takeIfDue(at: now) {
            try await store.purgeTombstones(olderThan: configuration.tombstoneRetention, now: now)
        }
    }
}
