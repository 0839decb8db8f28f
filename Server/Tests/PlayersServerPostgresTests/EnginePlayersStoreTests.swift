import Foundation
import PlayersProtocol
import PlayersServerStore
import ServerTestSupport
import Synchronization
import Testing

/// The players of the HTTP API as rows of the engine's `player` table
/// (``EnginePlayersStore``), on both of the engine's stores: the server's
/// own writes follow the engine's rules, and the players' digest is the
/// table's.
@Suite struct EnginePlayersStoreTests {
    /// The counts that seeds reported, from their tasks.
    final class ReportedCounts: Sendable {
        let counts = Mutex<[Int]>([])
    }

    static func withStores(_ kind: StoreKind, _ count: Int = 1, _ body: ([EnginePlayersStore]) async throws -> Void) async throws {
        try await StoreSandbox.with(kind) { sandbox in
            var stores: [EnginePlayersStore] = []
            for _ in 0..<count { stores.append(EnginePlayersStore(try await sandbox.makeSyncStore(schema: PlayersSchema.schema))) }
            do {
                try await body(stores)
            } catch {
                for store in stores { try? await store.close() }
                throw error
            }
            for store in stores { try await store.close() }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func twoSeedsAtOnceThroughTwoInstancesSeedOnce(_ kind: StoreKind) async throws {
        try await Self.withStores(kind, 2) { stores in
            let reported = ReportedCounts()
            try await withThrowingTaskGroup { group in
                for store in stores {
                    group.addTask { try await store.seed(2_500) { count in reported.counts.withLock { $0.append(count) } } }
                }
                try await group.waitForAll()
            }
            #expect(try await stores[0].allPlayers().count == 2_500)
            #expect(reported.counts.withLock { $0 } == [1_000, 2_000, 2_500], "one seed ran, batch by batch")
            try await stores[1].seed(10)
            #expect(try await stores[1].allPlayers().count == 2_500)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func anUpdateOnAVersionAnotherWriteOvertookIsAConflictAndOneOnNoneIsMadeOnTheLatest(_ kind: StoreKind) async throws {
        try await Self.withStores(kind) { stores in
            let store = stores[0]
            let player = try await store.insert(name: "Arthur", score: 1)
            let renamed = try await store.update(player.uuid, name: " Zaphod ", score: nil, expectedVersion: player.version)
            #expect(renamed == .updated(ServerPlayer(uuid: player.uuid, name: "Zaphod", score: 1, version: 2)))
            #expect(try await store.update(player.uuid, name: nil, score: 7, expectedVersion: player.version) == .conflict(currentVersion: 2))
            #expect(try await store.update(player.uuid, name: nil, score: 7, expectedVersion: nil)
                == .updated(ServerPlayer(uuid: player.uuid, name: "Zaphod", score: 7, version: 3)))
            #expect(try await store.delete(player.uuid))
            #expect(try await store.update(player.uuid, name: nil, score: 8, expectedVersion: nil) == .notFound)
            #expect(try await store.delete(player.uuid) == false)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func thePlayersDigestIsTheDigestOfTheirRows(_ kind: StoreKind) async throws {
        try await Self.withStores(kind) { stores in
            let store = stores[0]
            try await store.seed(30)
            _ = try await store.refresh()
            var expected = PlayersDigest.empty
            for player in try await store.allPlayers() {
                expected.toggle(uuid: player.uuid, name: player.name, score: player.score, version: player.version)
            }
            #expect(try await store.snapshot(limit: 1_000, after: nil).digest == expected)
            #expect(try await store.delta(since: 0, limit: 1_000)?.digest == expected)
        }
    }
}
