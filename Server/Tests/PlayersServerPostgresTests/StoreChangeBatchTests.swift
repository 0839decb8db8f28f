import Foundation
import SyncServerPostgres
import PlayersProtocol
import PlayersServerPostgres
import PlayersServerStore
import ServerTestSupport
import TestSupport
import Testing

/// The rules of `POST /v1/changes` on every store (Docs/SyncProtocol.md),
/// run on the embedded store and on PostgreSQL; a retry may reach another
/// instance than the first try.
@Suite struct StoreChangeBatchTests {
    func save(_ uuid: UUID, _ name: String, _ score: Int, base: Int64?) -> PlayersChangeBatch.Change {
        .init(mutationID: UUID(), uuid: uuid, kind: .save, name: name, score: score, baseVersion: base)
    }

    func delete(_ uuid: UUID, base: Int64?) -> PlayersChangeBatch.Change {
        .init(mutationID: UUID(), uuid: uuid, kind: .delete, baseVersion: base)
    }

    /// The players and tombstones in version order, as `name version` and
    /// `name tombstone version` (the names of tombstones from `names`).
    func rows(_ store: any PlayersStore, names: [UUID: String]) async throws -> [String] {
        try #require(try await store.delta(since: 0, limit: 10_000)).changes.map { change in
            switch change {
            case .player(let player): "\(player.name) \(player.version)"
            case .tombstone(let tombstone): "\(names[tombstone.uuid] ?? "?") tombstone \(tombstone.version)"
            }
        }
    }

    /// The one result of a batch of one change.
    func apply(_ store: any PlayersStore, _ change: PlayersChangeBatch.Change) async throws -> PlayersChangeResults.Result {
        let results = try await store.applyChanges(PlayersChangeBatch(changes: [change])).results
        try #require(results.count == 1)
        return results[0]
    }

    /// Everything a change can touch: the counter, the players, the
    /// tombstones.
    func state(_ store: any PlayersStore) async throws -> String {
        let delta = try #require(try await store.delta(since: 0, limit: 10_000))
        return "\(delta.serverVersion) \(delta.changes)"
    }

    @Test(arguments: StoreKind.allCases)
    func savesAreAppliedOnTheCurrentVersionOrAsNewPlayers(_ kind: StoreKind) async throws {
        try await StoreSandbox.withStore(kind) { store in
            let player = try #require(try await store.create(uuid: UUID(), name: "Arthur", score: 1).player)
            let edit = save(player.uuid, " Arthur Dent ", 42, base: 1)
            #expect(try await apply(store, edit) == .init(mutationID: edit.mutationID, status: .applied, version: 2))
            #expect(try await store.player(player.uuid) == ServerPlayer(uuid: player.uuid, name: "Arthur Dent", score: 42, version: 2))
            let uuid = UUID()
            let creation = save(uuid, "Zoé", 30, base: nil)
            #expect(try await apply(store, creation) == .init(mutationID: creation.mutationID, status: .applied, version: 3))
            #expect(try await store.player(uuid) == ServerPlayer(uuid: uuid, name: "Zoé", score: 30, version: 3))
        }
    }

    @Test(arguments: StoreKind.allCases)
    func savesOnAnotherVersionAreConflictsThatChangeNothing(_ kind: StoreKind) async throws {
        try await StoreSandbox.withStore(kind) { store in
            let player = try #require(try await store.create(uuid: UUID(), name: "Arthur", score: 1).player)
            guard case .updated(let current) = try await store.update(player.uuid, name: nil, score: 150, expectedVersion: 1) else {
                Issue.record("not updated")
                return
            }
            let before = try await state(store)
            let old = try await apply(store, save(player.uuid, "Arthur", 120, base: 1))
            #expect(old.status == .conflict && old.version == nil && old.player == current.entry)
            let copy = try await apply(store, save(player.uuid, "Copy", 2, base: nil))
            #expect(copy.status == .conflict && copy.player == current.entry)
            let deletion = try await apply(store, delete(player.uuid, base: 1))
            #expect(deletion.status == .conflict && deletion.player == current.entry)
            #expect(try await state(store) == before)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func deletedPlayersAnswerWithTheirTombstoneAndComeBackOnItsVersion(_ kind: StoreKind) async throws {
        try await StoreSandbox.withStore(kind) { store in
            let player = try #require(try await store.create(uuid: UUID(), name: "Arthur", score: 1).player)
            let deletion = try await apply(store, delete(player.uuid, base: 1))
            #expect(deletion.status == .applied && deletion.version == 2)
            let before = try await state(store)
            let again = try await apply(store, delete(player.uuid, base: 1))
            #expect(again.status == .applied && again.version == 2)
            let unknown = try await apply(store, delete(UUID(), base: 7))
            #expect(unknown.status == .applied && unknown.version == nil)
            let edit = try await apply(store, save(player.uuid, "Arthur", 2, base: 1))
            #expect(edit == .init(mutationID: edit.mutationID, status: .conflict, version: 2))
            let creation = try await apply(store, save(player.uuid, "Arthur", 2, base: nil))
            #expect(creation == .init(mutationID: creation.mutationID, status: .conflict, version: 2))
            let forgotten = try await apply(store, save(UUID(), "Ghost", 2, base: 5))
            #expect(forgotten == .init(mutationID: forgotten.mutationID, status: .conflict))
            #expect(try await state(store) == before)
            let revival = try await apply(store, save(player.uuid, "Arthur", 3, base: 2))
            #expect(revival == .init(mutationID: revival.mutationID, status: .applied, version: 3))
            #expect(try await store.player(player.uuid)?.score == 3)
            #expect(try #require(try await store.delta(since: 0, limit: 100)).changes.count == 1)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aRetriedBatchThroughAnotherInstanceGetsTheSameResultsAndAppliesNothingTwice(_ kind: StoreKind) async throws {
        try await StoreSandbox.with(kind) { sandbox in
            let first = try await sandbox.makeStore()
            let second = try await sandbox.makeStore()
            let arthur = try #require(try await first.create(uuid: UUID(), name: "Arthur", score: 1).player)
            let barbara = try #require(try await first.create(uuid: UUID(), name: "Barbara", score: 2).player)
            let craig = try #require(try await first.create(uuid: UUID(), name: "Craig", score: 3).player)
            _ = try await first.update(craig.uuid, name: nil, score: 30, expectedVersion: nil)
            let batch = PlayersChangeBatch(changes: [
                save(arthur.uuid, "Arthur", 10, base: 1),
                delete(barbara.uuid, base: 2),
                save(craig.uuid, "Craig", 300, base: 3),
                save(UUID(), "Zoé", 5, base: nil),
            ])
            let answer = try await first.applyChanges(batch)
            #expect(answer.results.map(\.status) == [.applied, .applied, .conflict, .applied])
            #expect(answer.results.map(\.version) == [5, 6, nil, 7])
            let after = try await state(first)
            #expect(try await second.applyChanges(batch) == answer)
            #expect(try await state(second) == after)
            // The conflict is answered as it was, even once Craig is back
            // at the base version's state.
            _ = try await second.update(craig.uuid, name: nil, score: 3, expectedVersion: nil)
            #expect(try await first.applyChanges(batch) == answer)
            try await first.close()
            try await second.close()
        }
    }

    @Test(arguments: StoreKind.allCases)
    func oneBatchUpdatesRevivesDeletesAndCreatesTogether(_ kind: StoreKind) async throws {
        try await StoreSandbox.withStore(kind) { store in
            let arthur = try await store.insert(name: "Arthur", score: 1)
            let barbara = try await store.insert(name: "Barbara", score: 2)
            try #require(try await store.delete(barbara.uuid))
            // Craig is deleted, then brought back by a push made on his
            // deletion (a creation would be refused).
            let craig = try await store.insert(name: "Craig", score: 3)
            try #require(try await store.delete(craig.uuid))
            #expect(try await store.create(uuid: craig.uuid, name: "Craig", score: 3) == .deleted(tombstoneVersion: 5))
            let revived = try await store.applyChanges(PlayersChangeBatch(changes: [save(craig.uuid, "Craig", 3, base: 5)]))
            try #require(revived.results.map(\.status) == [.applied])
            let zoe = UUID()
            let batch = PlayersChangeBatch(changes: [
                save(arthur.uuid, "Arthur", 10, base: 1),
                save(barbara.uuid, "Barbara", 20, base: 3),
                delete(craig.uuid, base: 6),
                save(zoe, "Zoé", 40, base: nil),
            ])
            let answer = try await store.applyChanges(batch)
            #expect(answer.results.map(\.status) == [.applied, .applied, .applied, .applied])
            #expect(answer.results.map(\.version) == [7, 8, 9, 10])
            let names = [arthur.uuid: "Arthur", barbara.uuid: "Barbara", craig.uuid: "Craig", zoe: "Zoé"]
            #expect(try await rows(store, names: names) == ["Arthur 7", "Barbara 8", "Craig tombstone 9", "Zoé 10"])
            #expect(try await store.currentVersion() == 10)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aBatchOfRecordedAndNewChangesAppliesOnlyTheNewInOrder(_ kind: StoreKind) async throws {
        try await StoreSandbox.withStore(kind) { store in
            let arthur = try await store.insert(name: "Arthur", score: 1)
            let old = [save(UUID(), "Barbara", 2, base: nil), save(UUID(), "Craig", 3, base: nil)]
            let first = try await store.applyChanges(PlayersChangeBatch(changes: old)).results
            let new = [save(UUID(), "Zoé", 4, base: nil), delete(arthur.uuid, base: 1)]
            let mixed = try await store.applyChanges(PlayersChangeBatch(changes: [new[0], old[0], new[1], old[1]]))
            #expect(mixed.results == [.init(mutationID: new[0].mutationID, status: .applied, version: 4), first[0], .init(mutationID: new[1].mutationID, status: .applied, version: 5), first[1]])
            let names = [arthur.uuid: "Arthur"]
            #expect(try await rows(store, names: names) == ["Barbara 2", "Craig 3", "Zoé 4", "Arthur tombstone 5"])
        }
    }

    @Test func onPostgreSQLABatchTakesAsManyRoundTripsWhateverItsSize() async throws {
        try await StoreSandbox.with(.postgres) { sandbox in
            let log = PostgresStatementLog()
            let store = EnginePlayersStore(try await PostgresSyncStore(url: try sandbox.postgresURL(), schema: PlayersSchema.schema, connectTimeout: hangGuard, logger: log.logger))
            do {
                let creations = (0..<PlayersChangeBatch.maximumChanges).map { save(UUID(), "P\($0)", $0, base: nil) }
                let first = save(UUID(), "First", 0, base: nil)
                let one = try await log.transaction { _ = try await store.applyChanges(PlayersChangeBatch(changes: [first])) }
                let full = try await log.transaction { _ = try await store.applyChanges(PlayersChangeBatch(changes: creations)) }
                // BEGIN, the counter's lock, the recorded answers, the
                // rows, the new rows, their old references, the answers,
                // the digests, the counter, its notification, COMMIT.
                #expect(one.count == 11, "\(one)")
                #expect(full.count == one.count, "\(full)")
                #expect(try await store.currentVersion() == Int64(PlayersChangeBatch.maximumChanges) + 1)
            } catch {
                try? await store.close()
                throw error
            }
            try await store.close()
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aBatchThatBreaksARuleChangesNothing(_ kind: StoreKind) async throws {
        try await StoreSandbox.withStore(kind) { store in
            let player = try #require(try await store.create(uuid: UUID(), name: "Arthur", score: 1).player)
            let before = try await state(store)
            let batch = PlayersChangeBatch(changes: [save(UUID(), "Zoé", 5, base: nil), save(player.uuid, "Arthur", 2, base: 1),
                                                     delete(player.uuid, base: 1)])
            await #expect(throws: PlayersPayloadError.self) { try await store.applyChanges(batch) }
            #expect(try await state(store) == before)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func mutationIDsAreForgottenWithThePurgedTombstones(_ kind: StoreKind) async throws {
        try await StoreSandbox.withStore(kind) { store in
            let creation = PlayersChangeBatch(changes: [save(UUID(), "Old", 1, base: nil)])
            let answer = try await store.applyChanges(creation)
            try await store.purgeTombstones(olderThan: 3600, now: Date())
            // Remembered: the same answer, nothing applied.
            #expect(try await store.applyChanges(creation) == answer)
            try await store.purgeTombstones(olderThan: 60, now: Date().addingTimeInterval(120))
            // Forgotten: the change is judged again, and the player it
            // created makes it a conflict.
            #expect(try await store.applyChanges(creation).results.first?.status == .conflict)
            #expect(try await store.snapshot(limit: 10, after: nil).version == 1)
        }
    }
}
