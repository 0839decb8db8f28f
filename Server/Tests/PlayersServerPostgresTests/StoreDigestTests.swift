import Foundation
import PlayersProtocol
import PlayersServerPostgres
import PlayersServerStore
import ServerTestSupport
import TestSupport
import Testing

/// The digest of the live players that both stores keep (the engine's
/// digest of the `player` table, whose hash is ``PlayersDigest``'s): after
/// every kind of write it is the digest computed from the players, and
/// every page that answers at the counter carries it.
@Suite struct StoreDigestTests {
    func save(_ uuid: UUID, _ name: String, _ score: Int, base: Int64?) -> PlayersChangeBatch.Change {
        .init(mutationID: UUID(), uuid: uuid, kind: .save, name: name, score: score, baseVersion: base)
    }

    /// Fails unless the kept digest is the players' and the pages at the
    /// counter carry it; returns it.
    @discardableResult
    func checkDigest(_ sandbox: StoreSandbox, _ store: any PlayersStore, after step: String) async throws -> PlayersDigest {
        let digests = try await sandbox.digests()
        #expect(digests.stored == digests.recomputed, "after \(step)")
        let delta = try #require(try await store.delta(since: try await store.currentVersion(), limit: 1))
        #expect(delta.digest == digests.recomputed, "the delta after \(step)")
        #expect(try await store.snapshot(limit: 100_000, after: nil).digest == digests.recomputed, "the snapshot after \(step)")
        return digests.recomputed
    }

    @Test(arguments: StoreKind.allCases)
    func theDigestFollowsEveryKindOfWrite(_ kind: StoreKind) async throws {
        try await StoreSandbox.with(kind) { sandbox in
            let store = try await sandbox.makeStore()
            do {
                #expect(try await checkDigest(sandbox, store, after: "nothing") == .empty)
                try await store.seed(30)
                try await checkDigest(sandbox, store, after: "a seed")
                // A name with what the hash's text must keep apart: its
                // separator, and characters beyond ASCII.
                let zoe = try await store.insert(name: "Zoé | 9 ⚽", score: 7)
                try await checkDigest(sandbox, store, after: "a creation")
                try await store.update(zoe.uuid, score: 12)
                try await store.update(zoe.uuid, name: "Zoë")
                try await checkDigest(sandbox, store, after: "updates")
                let players = try await store.allPlayers()
                _ = try await store.delete(players[0].uuid)
                try await checkDigest(sandbox, store, after: "a deletion")
                let results = try await store.applyChanges(PlayersChangeBatch(changes: [
                    save(players[1].uuid, "Batched", 1, base: players[1].version),
                    // Never its current version: a conflict.
                    save(players[2].uuid, "Conflict", 2, base: players[2].version + 1_000),
                    .init(mutationID: UUID(), uuid: players[3].uuid, kind: .delete, baseVersion: players[3].version),
                    save(UUID(), "New", 3, base: nil),
                    save(players[0].uuid, "Revived", 4, base: nil),
                ]))
                #expect(results.results.map(\.status) == [.applied, .conflict, .applied, .applied, .conflict])
                try await checkDigest(sandbox, store, after: "a batch")
                for _ in 0..<3 { _ = try await store.refresh() }
                let last = try await checkDigest(sandbox, store, after: "refreshes")
                try await store.purgeTombstones(olderThan: 0, now: Date().addingTimeInterval(60))
                #expect(try await checkDigest(sandbox, store, after: "a purge") == last)
            } catch {
                try? await store.close()
                throw error
            }
            try await store.close()
        }
    }
}
