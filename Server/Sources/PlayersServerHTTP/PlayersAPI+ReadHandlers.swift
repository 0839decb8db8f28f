import Foundation
import Hummingbird
import PlayersProtocol
import PlayersServerStore

extension PlayersAPI {
    /// `GET /v1/players`: a page of the snapshot, or, with `since`, a page
    /// of the delta after that cursor (410 when the cursor is too old).
    @Sendable func listPlayers(_ request: Request, _ context: PlayersRequestContext) async throws -> PlayersPage {
        switch try PlayersQuery(request.uri.queryParameters, configuration: configuration) {
        case let .snapshot(limit, after, cursor):
            let page = try await store.snapshot(limit: limit, after: after)
            return PlayersPage(page, limit: limit, after: after, cursor: cursor)
        case let .delta(since, limit):
            try await purgeTombstonesIfDue()
            guard let page = try await store.delta(since: since, limit: limit) else { throw APIError.gone }
            return PlayersPage(page, since: since, limit: limit)
        }
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
