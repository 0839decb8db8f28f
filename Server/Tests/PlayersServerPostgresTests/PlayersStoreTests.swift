import Foundation
import PlayersServerStore
import ServerTestSupport
import Synchronization
import Testing

/// What every `PlayersStore` does, run on the embedded store and on
/// PostgreSQL: pages, cursors, conflicts, tombstones, purges, seeding.
@Suite struct PlayersStoreTests {
    /// Creates players named P0, P1… with scores 0, 1…
    func createPlayers(_ count: Int, in store: any PlayersStore) async throws -> [ServerPlayer] {
        var players: [ServerPlayer] = []
        for index in 0..<count {
            players.append(try #require(try await store.create(uuid: UUID(), name: "P\(index)", score: index).player))
        }
        return players
    }

    /// Every change after `since`, by pages of `limit`, and the last cursor.
    func pagedDelta(_ store: any PlayersStore, since: Int64, limit: Int) async throws -> (changes: [DeltaPage.Change], cursor: Int64) {
        var changes: [DeltaPage.Change] = []
        var cursor = since
        while true {
            let page = try #require(try await store.delta(since: cursor, limit: limit))
            changes += page.changes
            cursor = page.version
            if page.isLast { return (changes, cursor) }
        }
    }

    @Test(arguments: StoreKind.allCases)
    func snapshotPagesHoldEveryPlayerOnceInUUIDOrder(_ kind: StoreKind) async throws {
        try await StoreSandbox.withStore(kind) { store in
            let players = try await createPlayers(7, in: store)
            var paged: [ServerPlayer] = []
            var after: UUID?
            var pages = 0
            while true {
                let page = try await store.snapshot(limit: 3, after: after)
                #expect(page.version == 7)
                paged += page.players
                pages += 1
                after = page.players.last?.uuid
                if page.isLast { break }
            }
            #expect(pages == 3)
            #expect(paged == players.sorted { $0.uuid.uuidString < $1.uuid.uuidString })
        }
    }

    @Test(arguments: StoreKind.allCases)
    func createRefusesAUUIDInUse(_ kind: StoreKind) async throws {
        try await StoreSandbox.withStore(kind) { store in
            let uuid = UUID()
            let created = try #require(try await store.create(uuid: uuid, name: "Arthur", score: 1).player)
            #expect(created.version == 1)
            #expect(try await store.create(uuid: uuid, name: "Copy", score: 2) == .taken(currentVersion: created.version))
            #expect(try await store.player(uuid) == created)
            #expect(try await store.snapshot(limit: 10, after: nil).version == 1)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func deltaPagesFollowVersionsAndEndAtTheCounter(_ kind: StoreKind) async throws {
        try await StoreSandbox.withStore(kind) { store in
            let players = try await createPlayers(4, in: store)
            _ = try await store.update(players[0].uuid, name: nil, score: 100, expectedVersion: nil)
            #expect(try await store.delete(players[1].uuid))
            let (changes, cursor) = try await pagedDelta(store, since: 2, limit: 2)
            #expect(cursor == 6)
            let versions = changes.map { change -> Int64 in
                switch change {
                case .player(let player): player.version
                case .tombstone(let tombstone): tombstone.version
                }
            }
            #expect(versions == [3, 4, 5, 6])
            guard case .tombstone(let tombstone) = changes.last else {
                Issue.record("no tombstone last: \(changes)")
                return
            }
            #expect(tombstone.uuid == players[1].uuid)
            let last = try #require(try await store.delta(since: 6, limit: 2))
            #expect(last.changes.isEmpty && last.isLast && last.version == 6 && last.serverVersion == 6)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func deltaIsNilAfterTheCounterAndBeforeThePurgedTombstones(_ kind: StoreKind) async throws {
        try await StoreSandbox.withStore(kind) { store in
            let players = try await createPlayers(3, in: store)
            #expect(try await store.delta(since: 4, limit: 10) == nil)
            #expect(try await store.delete(players[0].uuid))
            // Not old enough: nothing is purged.
            try await store.purgeTombstones(olderThan: 3600, now: Date())
            #expect(try await store.delta(since: 0, limit: 10)?.changes.count == 3)
            try await store.purgeTombstones(olderThan: 60, now: Date().addingTimeInterval(120))
            #expect(try await store.delta(since: 0, limit: 10) == nil)
            #expect(try await store.delta(since: 3, limit: 10) == nil)
            let fromFloor = try #require(try await store.delta(since: 4, limit: 10))
            #expect(fromFloor.changes.isEmpty && fromFloor.version == 4)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func updateOfAnotherVersionIsAConflictAndChangesNothing(_ kind: StoreKind) async throws {
        try await StoreSandbox.withStore(kind) { store in
            let player = try #require(try await store.create(uuid: UUID(), name: "Arthur", score: 1).player)
            #expect(try await store.update(UUID(), name: "Nobody", score: nil, expectedVersion: nil) == .notFound)
            let updated = ServerPlayer(uuid: player.uuid, name: "Arthur Dent", score: 1, version: 2)
            #expect(try await store.update(player.uuid, name: "Arthur Dent", score: nil, expectedVersion: 1) == .updated(updated))
            #expect(try await store.update(player.uuid, name: nil, score: 5, expectedVersion: 1) == .conflict(currentVersion: 2))
            #expect(try await store.player(player.uuid) == updated)
            #expect(try await store.snapshot(limit: 1, after: nil).version == 2)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func deleteLeavesATombstoneWithTheNextVersion(_ kind: StoreKind) async throws {
        try await StoreSandbox.withStore(kind) { store in
            let player = try #require(try await store.create(uuid: UUID(), name: "Arthur", score: 1).player)
            let beforeDeletion = Date()
            #expect(try await store.delete(player.uuid))
            let afterDeletion = Date()
            #expect(try await store.delete(player.uuid) == false)
            #expect(try await store.player(player.uuid) == nil)
            #expect(try await store.snapshot(limit: 10, after: nil).players.isEmpty)
            let delta = try #require(try await store.delta(since: 1, limit: 10))
            guard case .tombstone(let tombstone) = delta.changes.first, delta.changes.count == 1 else {
                Issue.record("not one tombstone: \(delta.changes)")
                return
            }
            #expect(tombstone.uuid == player.uuid && tombstone.version == 2)
            // When it was deleted (to the millisecond the stores keep).
            #expect(tombstone.deletedAt >= beforeDeletion.addingTimeInterval(-0.001))
            #expect(tombstone.deletedAt <= afterDeletion.addingTimeInterval(0.001))
        }
    }

    @Test(arguments: StoreKind.allCases)
    func seedInsertsPlayersOnceWhenTwoStoresSeedAtOnce(_ kind: StoreKind) async throws {
        try await StoreSandbox.with(kind) { sandbox in
            let first = try await sandbox.makeStore()
            let second = try await sandbox.makeStore()
            async let seeded: Void = first.seed(25)
            async let again: Void = second.seed(25)
            _ = try await (seeded, again)
            try await first.seed(25)
            let page = try await second.snapshot(limit: 100, after: nil)
            #expect(page.players.count == 25 && page.version == 25)
            try await first.close()
            try await second.close()
        }
    }

    @Test(arguments: StoreKind.allCases)
    func seedReportsItsProgressUpToTheCount(_ kind: StoreKind) async throws {
        try await StoreSandbox.withStore(kind) { store in
            let reported = Mutex<[Int]>([])
            try await store.seed(2500) { seeded in reported.withLock { $0.append(seeded) } }
            let counts = reported.withLock { $0 }
            #expect(counts == [1000, 2000, 2500])
            #expect(try await store.snapshot(limit: 5000, after: nil).players.count == 2500)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func refreshChangesPlayersAndReturnsTheCounter(_ kind: StoreKind) async throws {
        try await StoreSandbox.withStore(kind) { store in
            try await store.seed(10)
            let version = try await store.refresh()
            #expect(version > 10)
            #expect(try await store.snapshot(limit: 100, after: nil).version == version)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aClosedStoreThrows(_ kind: StoreKind) async throws {
        try await StoreSandbox.with(kind) { sandbox in
            let store = try await sandbox.makeStore()
            try await store.close()
            await #expect(throws: (any Error).self) { try await store.snapshot(limit: 1, after: nil) }
            await #expect(throws: (any Error).self) { try await store.create(uuid: UUID(), name: "Late", score: 1) }
        }
    }
}
