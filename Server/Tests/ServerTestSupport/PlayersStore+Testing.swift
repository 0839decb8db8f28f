import Foundation
import PlayersServerStore
import TestSupport

extension PlayersStore {
    /// Creates a player, whose uuid must be new.
    public func insert(uuid: UUID = UUID(), name: String, score: Int) async throws -> ServerPlayer {
        let creation = try await create(uuid: uuid, name: name, score: score)
        guard let player = creation.player else {
            throw TestFailure("the player \(uuid) was not created: \(creation)")
        }
        return player
    }

    /// Sets a player's name or score, whatever its version.
    @discardableResult
    public func update(_ uuid: UUID, name: String? = nil, score: Int? = nil) async throws -> ServerPlayer {
        guard case .updated(let player) = try await update(uuid, name: name, score: score, expectedVersion: nil) else {
            throw TestFailure("no player has the uuid \(uuid).")
        }
        return player
    }

    /// The change counter.
    public func currentVersion() async throws -> Int64 {
        try await snapshot(limit: 1, after: nil).version
    }

    /// Every live player, in uuid order.
    public func allPlayers() async throws -> [ServerPlayer] {
        var players: [ServerPlayer] = []
        var after: UUID?
        while true {
            let page = try await snapshot(limit: 1000, after: after)
            players += page.players
            after = page.players.last?.uuid
            if page.isLast { return players }
        }
    }

    /// The counter, the players and the tombstones, to compare before and
    /// after a request that must change nothing.
    public func state() async throws -> String {
        guard let delta = try await delta(since: 0, limit: 100_000) else {
            return "\(try await currentVersion()) (tombstones purged) \(try await allPlayers())"
        }
        return "\(delta.serverVersion) \(delta.changes)"
    }
}

extension PlayersStore {
    /// The cursor of the store's history at `counter`, as its server sends
    /// it.
    public func cursor(_ counter: Int64) -> String {
        history.cursor(at: counter).description
    }
}
