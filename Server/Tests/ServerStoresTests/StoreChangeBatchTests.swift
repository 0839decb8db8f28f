import Foundation
import PlayersShared
import ServerTestSupport
import SyncSchema
import SyncServer
import SyncServerPostgres
import TestSupport
import Testing

/// The rules of a push of Players' changes on every store
/// (Docs/SyncEngine.md), run on the embedded store and on PostgreSQL; a
/// retry may reach another instance than the first try.
@Suite struct StoreChangeBatchTests {
    func save(_ uuid: UUID, _ name: String, _ score: Int64, base: Int64?) throws -> SyncChange {
        try .playerSave(uuid, name: name, score: score, base: base)
    }

    func delete(_ uuid: UUID, base: Int64?) throws -> SyncChange {
        try .playerDelete(uuid, base: base)
    }

    /// A player's row as a conflict answers it.
    func row(_ player: ServerPlayer) throws -> SyncRow {
        try PlayersSchema.player.row(id: player.uuid, values: ["name": .text(player.name), "score": .integer(Int64(player.score))])
    }

    /// The players and tombstones in version order, as `name version` and
    /// `name tombstone version` (the names of tombstones from `names`).
    func rows(_ store: PlayersTestStore, names: [UUID: String]) async throws -> [String] {
        try #require(try await store.engine.changes(after: 0, limit: 10_000, tables: nil)).rows.map { row in
            switch row.state {
            case .live(let values, _): "\(values["name"].map { if case .text(let name) = $0 { name } else { "?" } } ?? "?") \(row.version)"
            case .deleted: "\(names[row.key.id] ?? "?") tombstone \(row.version)"
            }
        }
    }

    func apply(_ store: PlayersTestStore, _ changes: [SyncChange]) async throws -> [SyncPushResult] {
        try await store.engine.applyChanges(changes, at: Date())
    }

    /// The one result of a batch of one change.
    func apply(_ store: PlayersTestStore, _ change: SyncChange) async throws -> SyncPushResult {
        let results = try await apply(store, [change])
        try #require(results.count == 1)
        return results[0]
    }

    /// Everything a change can touch: the counter, the players, the
    /// tombstones.
    func state(_ store: PlayersTestStore) async throws -> String {
        try await store.state()
    }

    @Test(arguments: StoreKind.allCases)
    func savesAreAppliedOnTheCurrentVersionOrAsNewPlayers(_ kind: StoreKind) async throws {
        try await StoreSandbox.withStore(kind) { store in
            let player = try await store.insert(name: "Arthur", score: 1)
            let edit = try save(player.uuid, " Arthur Dent ", 42, base: 1)
            #expect(try await apply(store, edit) == SyncPushResult(mutationID: edit.mutationID, status: .applied, version: 2))
            #expect(try await store.player(player.uuid) == ServerPlayer(uuid: player.uuid, name: "Arthur Dent", score: 42, version: 2))
            let uuid = UUID()
            let creation = try save(uuid, "Zoé", 30, base: nil)
            #expect(try await apply(store, creation) == SyncPushResult(mutationID: creation.mutationID, status: .applied, version: 3))
            #expect(try await store.player(uuid) == ServerPlayer(uuid: uuid, name: "Zoé", score: 30, version: 3))
        }
    }

    @Test(arguments: StoreKind.allCases)
    func savesOnAnotherVersionAreConflictsThatChangeNothing(_ kind: StoreKind) async throws {
        try await StoreSandbox.withStore(kind) { store in
            let player = try await store.insert(name: "Arthur", score: 1)
            let current = try row(try await store.update(player.uuid, score: 150))
            let before = try await state(store)
            let old = try await apply(store, try save(player.uuid, "Arthur", 120, base: 1))
            #expect(old.status == .conflict && old.version == 2 && old.serverRow == current)
            let copy = try await apply(store, try save(player.uuid, "Copy", 2, base: nil))
            #expect(copy.status == .conflict && copy.serverRow == current)
            let deletion = try await apply(store, try delete(player.uuid, base: 1))
            #expect(deletion.status == .conflict && deletion.serverRow == current)
            #expect(try await state(store) == before)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func deletedPlayersAnswerWithTheirTombstoneAndComeBackOnItsVersion(_ kind: StoreKind) async throws {
        try await StoreSandbox.withStore(kind) { store in
            let player = try await store.insert(name: "Arthur", score: 1)
            let deletion = try await apply(store, try delete(player.uuid, base: 1))
            #expect(deletion.status == .applied && deletion.version == 2)
            let before = try await state(store)
            let again = try await apply(store, try delete(player.uuid, base: 1))
            #expect(again.status == .applied && again.version == 2)
            let unknown = try await apply(store, try delete(UUID(), base: 7))
            #expect(unknown.status == .applied && unknown.version == nil)
            let edit = try await apply(store, try save(player.uuid, "Arthur", 2, base: 1))
            #expect(edit == SyncPushResult(mutationID: edit.mutationID, status: .conflict, version: 2))
            let creation = try await apply(store, try save(player.uuid, "Arthur", 2, base: nil))
            #expect(creation == SyncPushResult(mutationID: creation.mutationID, status: .conflict, version: 2))
            let forgotten = try await apply(store, try save(UUID(), "Ghost", 2, base: 5))
            #expect(forgotten == SyncPushResult(mutationID: forgotten.mutationID, status: .conflict, version: nil))
            #expect(try await state(store) == before)
            let revival = try await apply(store, try save(player.uuid, "Arthur", 3, base: 2))
            #expect(revival == SyncPushResult(mutationID: revival.mutationID, status: .applied, version: 3))
            #expect(try await store.player(player.uuid)?.score == 3)
            #expect(try #require(try await store.engine.changes(after: 0, limit: 100, tables: nil)).rows.count == 1)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aRetriedBatchThroughAnotherInstanceGetsTheSameResultsAndAppliesNothingTwice(_ kind: StoreKind) async throws {
        try await StoreSandbox.with(kind) { sandbox in
            let first = try await sandbox.makeStore()
            let second = try await sandbox.makeStore()
            let arthur = try await first.insert(name: "Arthur", score: 1)
            let barbara = try await first.insert(name: "Barbara", score: 2)
            let craig = try await first.insert(name: "Craig", score: 3)
            try await first.update(craig.uuid, score: 30)
            let batch = [
                try save(arthur.uuid, "Arthur", 10, base: 1),
                try delete(barbara.uuid, base: 2),
                try save(craig.uuid, "Craig", 300, base: 3),
                try save(UUID(), "Zoé", 5, base: nil),
            ]
            let answer = try await apply(first, batch)
            #expect(answer.map(\.status) == [.applied, .applied, .conflict, .applied])
            #expect(answer.map(\.version) == [5, 6, 4, 7])
            let after = try await state(first)
            #expect(try await apply(second, batch) == answer)
            #expect(try await state(second) == after)
            // The conflict is answered as it was, even once Craig is back
            // at the base version's state.
            try await second.update(craig.uuid, score: 3)
            #expect(try await apply(first, batch) == answer)
            try await first.close()
            try await second.close()
        }
    }

    @Test(arguments: StoreKind.allCases)
    func oneBatchUpdatesRevivesDeletesAndCreatesTogether(_ kind: StoreKind) async throws {
        try await StoreSandbox.withStore(kind) { store in
            let arthur = try await store.insert(name: "Arthur", score: 1)
            let barbara = try await store.insert(name: "Barbara", score: 2)
            try await store.delete(barbara.uuid)
            // Craig is deleted, then brought back by a push made on his
            // deletion (a creation would be refused).
            let craig = try await store.insert(name: "Craig", score: 3)
            try await store.delete(craig.uuid)
            #expect(try await apply(store, try save(craig.uuid, "Craig", 3, base: nil)).status == .conflict)
            let revived = try await apply(store, [try save(craig.uuid, "Craig", 3, base: 5)])
            try #require(revived.map(\.status) == [.applied])
            let zoe = UUID()
            let batch = [
                try save(arthur.uuid, "Arthur", 10, base: 1),
                try save(barbara.uuid, "Barbara", 20, base: 3),
                try delete(craig.uuid, base: 6),
                try save(zoe, "Zoé", 40, base: nil),
            ]
            let answer = try await apply(store, batch)
            #expect(answer.map(\.status) == [.applied, .applied, .applied, .applied])
            #expect(answer.map(\.version) == [7, 8, 9, 10])
            let names = [arthur.uuid: "Arthur", barbara.uuid: "Barbara", craig.uuid: "Craig", zoe: "Zoé"]
            #expect(try await rows(store, names: names) == ["Arthur 7", "Barbara 8", "Craig tombstone 9", "Zoé 10"])
            #expect(try await store.currentVersion() == 10)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aBatchOfRecordedAndNewChangesAppliesOnlyTheNewInOrder(_ kind: StoreKind) async throws {
        try await StoreSandbox.withStore(kind) { store in
            let arthur = try await store.insert(name: "Arthur", score: 1)
            let old = [try save(UUID(), "Barbara", 2, base: nil), try save(UUID(), "Craig", 3, base: nil)]
            let first = try await apply(store, old)
            let new = [try save(UUID(), "Zoé", 4, base: nil), try delete(arthur.uuid, base: 1)]
            let mixed = try await apply(store, [new[0], old[0], new[1], old[1]])
            #expect(mixed == [SyncPushResult(mutationID: new[0].mutationID, status: .applied, version: 4), first[0],
                              SyncPushResult(mutationID: new[1].mutationID, status: .applied, version: 5), first[1]])
            let names = [arthur.uuid: "Arthur"]
            #expect(try await rows(store, names: names) == ["Barbara 2", "Craig 3", "Zoé 4", "Arthur tombstone 5"])
        }
    }

    @Test func onPostgreSQLABatchTakesAsManyRoundTripsWhateverItsSize() async throws {
        try await StoreSandbox.with(.postgres) { sandbox in
            let log = PostgresStatementLog()
            let store = PlayersTestStore(try await PostgresSyncStore(url: try sandbox.postgresURL(), schema: PlayersSchema.schema, connectTimeout: hangGuard, logger: log.logger))
            do {
                let creations = try (0..<SyncChangeBatch.maximumChanges).map { try save(UUID(), "P\($0)", Int64($0), base: nil) }
                let first = try save(UUID(), "First", 0, base: nil)
                let one = try await log.transaction { _ = try await apply(store, [first]) }
                let full = try await log.transaction { _ = try await apply(store, creations) }
                // BEGIN, the counter's lock, the recorded answers, the
                // rows, the new rows, their old references, the answers,
                // the digests kept, the digests written, the counter, its
                // notification, COMMIT.
                #expect(one.count == 12, "\(one)")
                #expect(full.count == one.count, "\(full)")
                #expect(try await store.currentVersion() == Int64(SyncChangeBatch.maximumChanges) + 1)
            } catch {
                try? await store.close()
                throw error
            }
            try await store.close()
        }
    }

    @Test(arguments: StoreKind.allCases)
    func mutationIDsAreForgottenWithThePurgedTombstones(_ kind: StoreKind) async throws {
        try await StoreSandbox.withStore(kind) { store in
            let creation = [try save(UUID(), "Old", 1, base: nil)]
            let answer = try await apply(store, creation)
            try await store.engine.purgeTombstones(olderThan: 3600, now: Date())
            // Remembered: the same answer, nothing applied.
            #expect(try await apply(store, creation) == answer)
            try await store.engine.purgeTombstones(olderThan: 60, now: Date().addingTimeInterval(120))
            // Forgotten: the change is judged again, and the player it
            // created makes it a conflict.
            #expect(try await apply(store, creation).first?.status == .conflict)
            #expect(try await store.currentVersion() == 1)
        }
    }
}
