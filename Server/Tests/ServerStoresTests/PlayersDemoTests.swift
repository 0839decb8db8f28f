import Foundation
import PlayersOnServer
import PlayersShared
import ServerTestSupport
import SyncSchema
import Synchronization
import Testing

/// The demo's writes of players (`--seed`, `POST /demo/refresh`), on both
/// of the engine's stores: changes of the engine, by its rules.
@Suite struct PlayersDemoTests {
    /// The counts that seeds reported, from their tasks.
    final class ReportedCounts: Sendable {
        let counts = Mutex<[Int]>([])
    }

    @Test(arguments: StoreKind.allCases)
    func twoSeedsAtOnceThroughTwoInstancesSeedOnce(_ kind: StoreKind) async throws {
        try await StoreSandbox.with(kind) { sandbox in
            let stores = [try await sandbox.makeStore(), try await sandbox.makeStore()]
            let reported = ReportedCounts()
            try await withThrowingTaskGroup { group in
                for store in stores {
                    let demo = try #require(PlayersDemo(store.engine))
                    group.addTask { try await demo.seed(2_500) { count in reported.counts.withLock { $0.append(count) } } }
                }
                try await group.waitForAll()
            }
            #expect(try await stores[0].allPlayers().count == 2_500)
            #expect(try await stores[0].currentVersion() == 2_500)
            #expect(reported.counts.withLock { $0 } == [1_000, 2_000, 2_500], "one seed ran, batch by batch")
            try await stores[1].seed(10)
            #expect(try await stores[1].allPlayers().count == 2_500)
            for store in stores { try await store.close() }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aRefreshChangesPlayersAndReturnsTheCounter(_ kind: StoreKind) async throws {
        try await StoreSandbox.withStore(kind) { store in
            let demo = try #require(PlayersDemo(store.engine))
            #expect(try await demo.refresh() == Int64(RandomPlayerChanges<Int>.emptyTablePlayerCount))
            let before = try await store.allPlayers()
            let version = try await demo.refresh()
            #expect(try await store.currentVersion() == version)
            let after = try await store.allPlayers()
            #expect(version > 8 || before == after, "a refresh that changed nothing leaves the counter")
        }
    }

    /// The demo writes players: a store without Players' table has none.
    @Test func aStoreWithoutPlayersTableHasNoDemo() async throws {
        try await StoreSandbox.with(.embedded) { sandbox in
            let store = try await sandbox.makeSyncStore(schema: .testNotes)
            #expect(PlayersDemo(store) == nil)
            #expect(!PlayersDemo.serves(.testNotes))
            #expect(PlayersDemo.serves(.playersAndTestNotes))
            try await store.close()
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aClosedStoreThrows(_ kind: StoreKind) async throws {
        try await StoreSandbox.with(kind) { sandbox in
            let store = try await sandbox.makeStore()
            try await store.close()
            await #expect(throws: (any Error).self) { try await store.allPlayers() }
            await #expect(throws: (any Error).self) { try await store.insert(name: "Late", score: 1) }
        }
    }
}
