import CipherDB
import Foundation
import PlayersProtocol
import PlayersServerStore
import Testing

/// The rules of `POST /v1/changes` in the server's database
/// (Docs/SyncProtocol.md): what is applied, what is a conflict, and that a
/// mutation id is applied once.
@Suite struct ChangeBatchTests {
    let stores = ServerPlayersDatabaseTests()

    func save(_ uuid: UUID, _ name: String, _ score: Int, base: Int64?, id: UUID = UUID()) -> PlayersChangeBatch.Change {
        .init(mutationID: id, uuid: uuid, kind: .save, name: name, score: score, baseVersion: base)
    }

    func delete(_ uuid: UUID, base: Int64?, id: UUID = UUID()) -> PlayersChangeBatch.Change {
        .init(mutationID: id, uuid: uuid, kind: .delete, baseVersion: base)
    }

    /// The one result of a batch of one change.
    func apply(_ store: ServerPlayersDatabase, _ change: PlayersChangeBatch.Change, at date: Date = Date()) throws -> PlayersChangeResults.Result {
        let results = try store.applyChanges(PlayersChangeBatch(changes: [change]), at: date).results
        try #require(results.count == 1)
        return results[0]
    }

    /// Everything a change can touch: the counter, the players, the
    /// tombstones.
    func state(_ store: ServerPlayersDatabase) throws -> String {
        let delta = try #require(try store.delta(since: 0, limit: 10_000))
        return "\(try store.currentVersion()) \(delta.changes)"
    }

    @Test func saveOnTheCurrentVersionIsAppliedWithTheNextVersion() throws {
        try stores.withStore { store in
            let player = try store.insert(name: "Arthur", score: 1)
            let id = UUID()
            let result = try apply(store, save(player.uuid, " Arthur Dent ", 42, base: player.version, id: id))
            #expect(result == .init(mutationID: id, status: .applied, version: 2))
            #expect(try store.player(player.uuid) == ServerPlayer(uuid: player.uuid, name: "Arthur Dent", score: 42, version: 2))
        }
    }

    @Test func saveWithoutBaseVersionCreatesThePlayerWithTheClientsUUID() throws {
        try stores.withStore { store in
            _ = try store.insert(name: "Existing", score: 1)
            let uuid = UUID()
            let result = try apply(store, save(uuid, "Zoé", 30, base: nil))
            #expect(result.status == .applied && result.version == 2 && result.player == nil)
            #expect(try store.player(uuid) == ServerPlayer(uuid: uuid, name: "Zoé", score: 30, version: 2))
        }
    }

    @Test func deleteOnTheCurrentVersionLeavesATombstone() throws {
        try stores.withStore { store in
            let player = try store.insert(name: "Arthur", score: 1)
            let result = try apply(store, delete(player.uuid, base: 1))
            #expect(result.status == .applied && result.version == 2)
            #expect(try store.player(player.uuid) == nil)
            let delta = try #require(try store.delta(since: 1, limit: 10))
            guard case .tombstone(let tombstone) = delta.changes.first else {
                Issue.record("no tombstone: \(delta.changes)")
                return
            }
            #expect(tombstone.uuid == player.uuid && tombstone.version == 2)
        }
    }

    @Test func deleteOfAPlayerAlreadyDeletedIsAppliedAndChangesNothing() throws {
        try stores.withStore { store in
            let player = try store.insert(name: "Arthur", score: 1)
            try store.delete(player.uuid)
            let before = try state(store)
            let tombstoned = try apply(store, delete(player.uuid, base: 1))
            #expect(tombstoned.status == .applied && tombstoned.version == 2)
            let unknown = try apply(store, delete(UUID(), base: 7))
            #expect(unknown.status == .applied && unknown.version == nil)
            #expect(try state(store) == before)
        }
    }

    @Test func saveOnAnOlderVersionIsAConflictWithTheServersPlayer() throws {
        try stores.withStore { store in
            let player = try store.insert(name: "Arthur", score: 1)
            let current = try #require(try store.update(player.uuid, name: nil, score: 150))
            let before = try state(store)
            let result = try apply(store, save(player.uuid, "Arthur", 120, base: 1))
            #expect(result.status == .conflict && result.version == nil)
            #expect(result.player == current.entry)
            #expect(try state(store) == before)
        }
    }

    @Test func saveWithoutBaseVersionOfAPlayerTheServerHasIsAConflict() throws {
        try stores.withStore { store in
            let player = try store.insert(name: "Arthur", score: 1)
            let result = try apply(store, save(player.uuid, "Copy", 2, base: nil))
            #expect(result.status == .conflict && result.player == player.entry)
            #expect(try store.player(player.uuid) == player)
        }
    }

    @Test func saveOfADeletedPlayerIsAConflictWithItsTombstonesVersion() throws {
        try stores.withStore { store in
            let player = try store.insert(name: "Arthur", score: 1)
            try store.delete(player.uuid)
            let before = try state(store)
            let edit = try apply(store, save(player.uuid, "Arthur", 2, base: 1))
            #expect(edit == .init(mutationID: edit.mutationID, status: .conflict, version: 2))
            // A creation with the uuid of a deleted player does not revive it.
            let create = try apply(store, save(player.uuid, "Arthur", 2, base: nil))
            #expect(create == .init(mutationID: create.mutationID, status: .conflict, version: 2))
            // A player whose tombstone is purged, or that never was: deleted, version unknown.
            let forgotten = try apply(store, save(UUID(), "Ghost", 2, base: 5))
            #expect(forgotten == .init(mutationID: forgotten.mutationID, status: .conflict))
            #expect(try state(store) == before)
        }
    }

    @Test func saveOnTheVersionOfTheTombstoneBringsThePlayerBack() throws {
        try stores.withStore { store in
            let player = try store.insert(name: "Arthur", score: 1)
            try store.delete(player.uuid)
            let result = try apply(store, save(player.uuid, "Arthur", 3, base: 2))
            #expect(result == .init(mutationID: result.mutationID, status: .applied, version: 3))
            #expect(try store.player(player.uuid)?.score == 3)
            // The player is alive again: its tombstone is gone.
            let delta = try #require(try store.delta(since: 0, limit: 100))
            #expect(delta.changes.count == 1)
        }
    }

    @Test func deleteOfAnEditedPlayerIsAConflictAndThePlayerStays() throws {
        try stores.withStore { store in
            let player = try store.insert(name: "Arthur", score: 1)
            let current = try #require(try store.update(player.uuid, name: "Arthur Dent", score: nil))
            let result = try apply(store, delete(player.uuid, base: 1))
            #expect(result.status == .conflict && result.player == current.entry)
            #expect(try store.player(player.uuid) == current)
        }
    }

    @Test func aRetriedBatchGetsTheSameResultsAndAppliesNothingTwice() throws {
        try stores.withStore { store in
            let arthur = try store.insert(name: "Arthur", score: 1)
            let barbara = try store.insert(name: "Barbara", score: 2)
            let craig = try store.insert(name: "Craig", score: 3)
            _ = try store.update(craig.uuid, name: nil, score: 30)
            let batch = PlayersChangeBatch(changes: [
                save(arthur.uuid, "Arthur", 10, base: 1),
                delete(barbara.uuid, base: 2),
                save(craig.uuid, "Craig", 300, base: 3),
                save(UUID(), "Zoé", 5, base: nil),
            ])
            let first = try store.applyChanges(batch)
            #expect(first.results.map(\.status) == [.applied, .applied, .conflict, .applied])
            #expect(first.results.map(\.version) == [5, 6, nil, 7])
            let after = try state(store)
            #expect(try store.applyChanges(batch) == first)
            #expect(try state(store) == after)
            // The conflict is answered as it was, even once Craig is back
            // at the base version's state.
            _ = try store.update(craig.uuid, name: nil, score: 3)
            #expect(try store.applyChanges(batch) == first)
        }
    }

    @Test func aBatchThatBreaksARuleChangesNothing() throws {
        try stores.withStore { store in
            let player = try store.insert(name: "Arthur", score: 1)
            let before = try state(store)
            let batch = PlayersChangeBatch(changes: [save(UUID(), "Zoé", 5, base: nil), save(player.uuid, "Arthur", 2, base: 1),
                                                     delete(player.uuid, base: 1)])
            #expect(throws: PlayersPayloadError.self) { try store.applyChanges(batch) }
            #expect(try state(store) == before)
        }
    }

    @Test func mutationIDsAreForgottenWithTheTombstonesOfTheirAge() throws {
        try stores.withStore { store in
            let now = Date()
            let old = PlayersChangeBatch(changes: [save(UUID(), "Old", 1, base: nil)])
            let recent = PlayersChangeBatch(changes: [save(UUID(), "Recent", 2, base: nil)])
            let oldAnswer = try store.applyChanges(old, at: now.addingTimeInterval(-7200))
            let recentAnswer = try store.applyChanges(recent, at: now.addingTimeInterval(-1800))
            try store.purgeTombstones(olderThan: 3600, now: now)
            // Remembered: the same answer, nothing applied.
            #expect(try store.applyChanges(recent) == recentAnswer)
            // Forgotten: the change is judged again, and the player it
            // created makes it a conflict.
            #expect(oldAnswer.results.first?.status == .applied)
            #expect(try store.applyChanges(old).results.first?.status == .conflict)
            #expect(try store.currentVersion() == 2)
        }
    }
}
